package io.jasyncio.junit;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JUnit Jupiter this extension runs under: 5.10 or later (built against 6, it calls nothing
 * newer than 5.10's API). An older one fails the first {@code @AsyncTest} with a sentence that
 * names the version needed and the one found, instead of a {@code NoSuchMethodError} deep in a run.
 */
final class JupiterVersion {
    static final int OLDEST_MAJOR = 5;
    static final int OLDEST_MINOR = 10;

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    private JupiterVersion() {
    }

    /** Throws when the Jupiter API in use is older than 5.10; passes when its version is unknown. */
    static void checkSupported() {
        String found = found();
        if (found != null && !supported(found)) {
            throw new ExtensionConfigurationException(refusal(found));
        }
    }

    /** Whether {@code version} ("5.11.4", "6.1.3") is 5.10 or later; an unreadable one passes. */
    static boolean supported(String version) {
        Matcher m = MAJOR_MINOR.matcher(version);
        if (!m.find()) {
            return true;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major > OLDEST_MAJOR || (major == OLDEST_MAJOR && minor >= OLDEST_MINOR);
    }

    static String refusal(String found) {
        return "jasyncio-junit needs JUnit Jupiter " + OLDEST_MAJOR + "." + OLDEST_MINOR + " or later; this test run has "
                + found + " (junit-jupiter-api): raise the JUnit version in the build (e.g. its junit-bom)";
    }

    /** The version of the junit-jupiter-api in use: its module's version, or its jar's manifest. */
    private static String found() {
        Module api = ExtensionContext.class.getModule();
        if (api.isNamed() && api.getDescriptor() != null && api.getDescriptor().rawVersion().isPresent()) {
            return api.getDescriptor().rawVersion().get();
        }
        return ExtensionContext.class.getPackage().getImplementationVersion();
    }
}

package io.jasyncio.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Every ported scenario, in file order: each concrete {@link Scenario} class in the package
 * {@code io.jasyncio.conformance.scenarios} is found on the class path, so adding a port is adding
 * its file.
 */
public final class Scenarios {
    private static final String PACKAGE = "io.jasyncio.conformance.scenarios";

    private Scenarios() {
    }

    public static List<Scenario> all() {
        List<Scenario> found = new ArrayList<>();
        for (String className : classNames()) {
            try {
                Class<?> type = Class.forName(className);
                if (Scenario.class.isAssignableFrom(type) && !java.lang.reflect.Modifier.isAbstract(type.getModifiers())
                        && type.getEnclosingClass() == null) {
                    found.add((Scenario) type.getDeclaredConstructor().newInstance());
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot instantiate scenario " + className, e);
            }
        }
        found.sort(Comparator.comparing(Scenario::name));
        return found;
    }

    public static Optional<Scenario> byName(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }

    private static List<String> classNames() {
        String path = PACKAGE.replace('.', '/');
        List<String> names = new ArrayList<>();
        try {
            Enumeration<URL> roots = Scenarios.class.getClassLoader().getResources(path);
            while (roots.hasMoreElements()) {
                URL url = roots.nextElement();
                if (url.getProtocol().equals("jar")) {
                    JarURLConnection connection = (JarURLConnection) url.openConnection();
                    try (JarFile jar = connection.getJarFile()) {
                        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                            String entry = e.nextElement().getName();
                            if (entry.startsWith(path + "/") && entry.endsWith(".class") && entry.indexOf('$') < 0
                                    && entry.lastIndexOf('/') == path.length()) {
                                names.add(entry.substring(0, entry.length() - 6).replace('/', '.'));
                            }
                        }
                    }
                } else {
                    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                        files.map(p -> p.getFileName().toString())
                                .filter(f -> f.endsWith(".class") && f.indexOf('$') < 0)
                                .forEach(f -> names.add(PACKAGE + "." + f.substring(0, f.length() - 6)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }
}

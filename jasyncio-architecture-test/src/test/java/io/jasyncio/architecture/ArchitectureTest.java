package io.jasyncio.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layer rules of docs/ARCHITECTURE.md ("Layers"), checked on the compiled classes of every
 * module on this module's class path (tests excluded). A rule broken by a change fails the build
 * with the offending arrows listed; a new arrow that is right goes into the doc and the table
 * here together.
 */
class ArchitectureTest {
    private static final String LIBRARY = "io.jasyncio";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(LIBRARY);

    /**
     * Core's layers, bottom up: a package names only packages of a lower layer and of its own
     * (a layer is its package and every package under it: {@code task.internal},
     * {@code debug.graph}). Peers of one layer do not name each other.
     */
    static final Map<String, Integer> CORE_LAYERS = Map.ofEntries(
            Map.entry("io.jasyncio.util", 0),
            Map.entry("io.jasyncio.context", 1),
            Map.entry("io.jasyncio.loop", 2),
            Map.entry("io.jasyncio.task", 3),
            Map.entry("io.jasyncio.sync", 4),
            Map.entry("io.jasyncio.exec", 4),
            Map.entry("io.jasyncio.debug", 4),
            Map.entry("io.jasyncio.interop", 4),
            Map.entry("io.jasyncio.group", 5),
            Map.entry("io.jasyncio.net", 6),
            Map.entry("io.jasyncio.subprocess", 7),
            Map.entry("io.jasyncio", 8)); // the facade

    /** The native loop modules' packages: core names none of them. */
    private static final String[] NATIVE_LOOPS = {"io.jasyncio.epoll..", "io.jasyncio.uring..", "io.jasyncio.nativeio.."};

    @Test
    void noPackageCycles() {
        slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles()
                .because("no two packages may import each other, directly or around a ring")
                .check(CLASSES);
    }

    @Test
    void coreLayersPointDown() {
        classes().that(inCore()).should(nameOnlyLowerLayers())
                .because("the layers of docs/ARCHITECTURE.md point down: the loop knows nothing above it")
                .check(CLASSES);
    }

    @Test
    void theLoopKnowsNothingAboveIt() {
        classes().that().resideInAPackage("io.jasyncio.loop..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(LIBRARY + "..")
                        .or(resideInAnyPackage("io.jasyncio.loop..", "io.jasyncio.context..", "io.jasyncio.util..")))
                .because("layers above keep per-loop state in LoopLocals and watch iterations through LoopObserver")
                .check(CLASSES);
    }

    @Test
    void anApiNeverNamesItsInternals() {
        classes().that().resideInAPackage(LIBRARY + "..").and().resideOutsideOfPackage("..internal..")
                .should(notNameTheirOwnInternals())
                .because("a layer's internals use its API, never the other way round")
                .check(CLASSES);
    }

    @Test
    void coreNamesNoNativeLoop() {
        noClasses().that(inCore()).should().dependOnClassesThat().resideInAnyPackage(NATIVE_LOOPS)
                .because("native loops plug in as providers; core finds them through ServiceLoader only")
                .check(CLASSES);
    }

    @Test
    void theNativeLoopsShareOnlyTheNativeBase() {
        noClasses().that().resideInAPackage("io.jasyncio.uring..")
                .should().dependOnClassesThat().resideInAPackage("io.jasyncio.epoll..")
                .because("what epoll and io_uring share is jasyncio-native's; neither loop needs the other")
                .check(CLASSES);
        noClasses().that().resideInAPackage("io.jasyncio.epoll..")
                .should().dependOnClassesThat().resideInAPackage("io.jasyncio.uring..")
                .because("what epoll and io_uring share is jasyncio-native's; neither loop needs the other")
                .check(CLASSES);
        noClasses().that().resideInAPackage("io.jasyncio.nativeio..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jasyncio.epoll..", "io.jasyncio.uring..")
                .because("the native base sits under both native loops")
                .check(CLASSES);
    }

    @Test
    void theNeutralNativeKitNamesNoLinuxPart() {
        noClasses().that().resideInAPackage("io.jasyncio.nativeio")
                .should().dependOnClassesThat().resideInAPackage("io.jasyncio.nativeio.linux..")
                .because("jasyncio-native's neutral package (downcalls, POSIX calls, the fd table) is what a backend "
                        + "for any OS builds on; epoll and eventfd sit in nativeio.linux")
                .check(CLASSES);
    }

    /** The backends: the native ones, their shared base, and the one written outside core. */
    private static final String[] BACKENDS = {"io.jasyncio.epoll..", "io.jasyncio.uring..", "io.jasyncio.nativeio..",
            "io.jasyncio.backendtest..", "io.jasyncio.poll.."};

    /** Core's packages a module outside it cannot use on the module path (not exported to it). */
    private static final String[] CORE_NOT_EXPORTED = {"io.jasyncio.loop.internal..", "io.jasyncio.task.internal..",
            "io.jasyncio.debug.internal..", "io.jasyncio.exec..", "io.jasyncio.interop..", "io.jasyncio.util.."};

    @Test
    void backendsPlugInThroughThePublishedSpiAlone() {
        noClasses().that().resideInAnyPackage(BACKENDS)
                .should().dependOnClassesThat().resideInAnyPackage(CORE_NOT_EXPORTED)
                .because("a backend is what any module could write: an EventLoopProvider, a LoopBackend and a Poller "
                        + "from core's exported packages")
                .check(CLASSES);
    }

    /** The SPI: what a backend implements and receives, apart from the packages users browse. */
    private static final String[] SPI = {"io.jasyncio.loop.spi..", "io.jasyncio.net.spi.."};

    @Test
    void backendsImplementTheSpiNotTheUserPackages() {
        noClasses().that().resideInAnyPackage(BACKENDS)
                .should().beAssignableTo(resideInAnyPackage("io.jasyncio.loop", "io.jasyncio.net")
                        .and(not(JavaClass.Predicates.equivalentTo(Object.class))))
                .because("what a backend implements (EventLoopProvider, LoopBackend, Poller, IoRegistration, Proactor) "
                        + "sits in loop.spi and net.spi: loop and net hold no SPI type")
                .check(CLASSES);
    }

    @Test
    void theLoopSpiNamesNothingOfTheLoop() {
        noClasses().that().resideInAPackage("io.jasyncio.loop.spi..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jasyncio.loop", "io.jasyncio.loop.internal..")
                .because("the SPI sits below the loop: the loop implements LoopContract and hands its backend "
                        + "ReadyCallbacks, so a backend compiles against loop.spi alone")
                .check(CLASSES);
    }

    @Test
    void backendsNameNothingOfTheLoopsUserPackage() {
        noClasses().that().resideInAnyPackage(BACKENDS)
                .should().dependOnClassesThat().resideInAPackage("io.jasyncio.loop")
                .because("what a backend needs from its loop is LoopContract and ReadyCallback, in loop.spi")
                .check(CLASSES);
    }

    @Test
    void theSpiNamesOnlyExportedPackages() {
        noClasses().that().resideInAnyPackage(SPI)
                .should().dependOnClassesThat().resideInAnyPackage(CORE_NOT_EXPORTED)
                .because("a backend on the module path must be able to name every type the SPI hands it")
                .check(CLASSES);
    }

    @Test
    void theBackendKitIsExportedToEveryModule() throws Exception {
        for (String kitClass : new String[] {"io.jasyncio.loop.spi.Poller", "io.jasyncio.nativeio.FdTable"}) {
            Path jar = Path.of(Class.forName(kitClass).getProtectionDomain().getCodeSource().getLocation().toURI());
            ModuleDescriptor module = ModuleFinder.of(jar).findAll().iterator().next().descriptor();
            List<String> kit = module.exports().stream()
                    .filter(e -> e.source().endsWith(".spi") || e.source().startsWith("io.jasyncio.nativeio"))
                    .map(e -> e.source() + (e.isQualified() ? " to " + e.targets() : "")).sorted().toList();
            assertFalse(kit.isEmpty(), module.name() + " exports its part of the kit");
            for (String export : kit) {
                assertFalse(export.contains(" to "), module.name() + " exports " + export
                        + ": a backend outside this repository (jasyncio-backend-poll) must get what epoll and io_uring get");
            }
        }
    }

    @Test
    void everyLoopIsCoresOneLoopClass() {
        classes().that().implement(EVENT_LOOP).should().resideInAPackage("io.jasyncio.loop")
                .because("a backend gives the loop its poller and features; it does not bring a loop class of its own")
                .check(CLASSES);
    }

    @Test
    void transportsAreFinalClassesOverOneBase() {
        classes().that().areAssignableTo(BASE_TRANSPORT).and().areNotInterfaces()
                .and().doNotHaveFullyQualifiedName(CHANNEL_TRANSPORT)
                .should().haveModifier(JavaModifier.FINAL)
                .because("transports are composed, not a hierarchy: each is one final class over ChannelTransport "
                        + "(or over nothing) that composes a WriteQueue and a read strategy")
                .check(CLASSES);
    }

    @Test
    void onlyNetworkMakesTheSocketTransports() {
        noClasses().that().areNotAssignableTo(CHANNEL_TRANSPORT).and().doNotHaveFullyQualifiedName(NETWORK)
                .should().callConstructorWhere(DescribedPredicate.describe(
                        "the target is a transport of the net package's own (not a public pipe transport)",
                        call -> call.getTargetOwner().isAssignableTo(CHANNEL_TRANSPORT)
                                && !call.getTargetOwner().getModifiers().contains(JavaModifier.PUBLIC)))
                .because("Network makes each socket transport, by completion when the loop's backend offers a "
                        + "Proactor, else on readiness: nothing else chooses one (by the loop's type or otherwise)")
                .check(CLASSES);
    }

    @Test
    void theNetSpiNamesOnlyTheJdk() {
        classes().that().resideInAPackage("io.jasyncio.net.spi..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(LIBRARY + "..")
                        .or(resideInAnyPackage("io.jasyncio.net.spi..")))
                .because("a completion backend implements Proactor with JDK types alone; net picks the transport, "
                        + "so net.spi and net never import each other")
                .check(CLASSES);
    }

    private static final String EVENT_LOOP = "io.jasyncio.loop.EventLoop";
    private static final String BASE_TRANSPORT = "io.jasyncio.net.BaseTransport";
    private static final String CHANNEL_TRANSPORT = "io.jasyncio.net.ChannelTransport";
    private static final String NETWORK = "io.jasyncio.net.Network";

    @Test
    void noLibraryCodeNamesTheCli() {
        noClasses().that().resideOutsideOfPackage("io.jasyncio.lab..")
                .should().dependOnClassesThat().resideInAPackage("io.jasyncio.lab..")
                .because("the CLI sits on top of everything; nothing it ships with may need it")
                .check(CLASSES);
    }

    @Test
    void theHttpCodecDoesNoIo() {
        noClasses().that().resideInAPackage("io.jasyncio.http.codec..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.jasyncio.net..", "io.jasyncio.task..", "io.jasyncio.loop..", LIBRARY)
                .because("the HTTP connection's state machine is fed events and answers decisions: no transport, task,"
                        + " loop or facade, so unit tests drive it without a socket")
                .check(CLASSES);
    }

    /**
     * Each package of the library is its own slice ({@code loop.spi} and {@code net.spi} too: each
     * sits below its layer's package, which names it, and names nothing of it). Everything else is
     * left out.
     */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            return pkg.equals(LIBRARY) || pkg.startsWith(LIBRARY + ".") ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of " + LIBRARY;
        }
    };

    private static DescribedPredicate<JavaClass> inCore() {
        return DescribedPredicate.describe("are in core",
                c -> layerOf(c.getPackageName()) != null);
    }

    /**
     * The core layer {@code pkg} belongs to: the longest layer package it is or sits under (the
     * facade, {@code io.jasyncio}, only itself), or null outside core.
     */
    static String layerOf(String pkg) {
        String best = pkg.equals(LIBRARY) ? LIBRARY : null;
        for (String layer : CORE_LAYERS.keySet()) {
            if (!layer.equals(LIBRARY) && (pkg.equals(layer) || pkg.startsWith(layer + "."))
                    && (best == null || layer.length() > best.length())) {
                best = layer;
            }
        }
        return best;
    }

    private static ArchCondition<JavaClass> nameOnlyLowerLayers() {
        return new ArchCondition<>("name only packages of a lower layer of core") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String fromLayer = layerOf(origin.getPackageName());
                int fromRank = CORE_LAYERS.get(fromLayer);
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    String to = d.getTargetClass().getPackageName();
                    if (!(to.equals(LIBRARY) || to.startsWith(LIBRARY + "."))) {
                        continue;
                    }
                    String toLayer = layerOf(to);
                    if (toLayer == null) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription() + " (outside core)"));
                    } else if (!toLayer.equals(fromLayer) && CORE_LAYERS.get(toLayer) >= fromRank) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription() + " (layer "
                                + CORE_LAYERS.get(toLayer) + " from layer " + fromRank + ")"));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> notNameTheirOwnInternals() {
        return new ArchCondition<>("not name the internals beside their package") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String internals = origin.getPackageName() + ".internal";
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    String to = d.getTargetClass().getPackageName();
                    if (to.equals(internals) || to.startsWith(internals + ".")) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        };
    }
}

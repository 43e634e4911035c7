package io.jasyncio;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every facade method is callable unqualified after {@code import static io.jasyncio.Asyncio.*},
 * in any class: a method of {@code Object} with the same name (wait, notify, equals...) is a
 * member of every class and hides the static import inside it, whatever the parameters.
 */
class FacadeNamesTest {
    @Test
    void noFacadeMethodSharesANameWithAMethodOfObject() {
        Set<String> objectNames = Arrays.stream(Object.class.getMethods()).map(Method::getName).collect(Collectors.toSet());
        Set<String> shadowed = new TreeSet<>();
        for (Method m : Asyncio.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && !m.isAnnotationPresent(Deprecated.class)
                    && objectNames.contains(m.getName())) {
                shadowed.add(m.getName());
            }
        }
        assertEquals(Set.of(), shadowed, "facade methods hidden by Object's inside any class");
    }
}

package io.jasyncio.http;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.function.Function;

/**
 * A record's copy with one component changed, named by its accessor: the options records' one
 * {@code withX} method each, instead of each spelling out every component:
 * {@code return RecordCopy.with(this, HttpLimits::maxBodySize, n);}. The accessor reference is
 * serializable, which names the method it refers to; the copy goes through the canonical
 * constructor, so its checks apply. For settings, not for hot paths (it reflects).
 */
public final class RecordCopy {
    /** An accessor of a component of {@code R}, as a method reference ({@code HttpLimits::maxBodySize}). */
    @FunctionalInterface
    public interface Component<R extends Record, T> extends Function<R, T>, Serializable {
    }

    private RecordCopy() {
    }

    /** {@code record} with {@code component} set to {@code value}, the rest as they are. */
    public static <R extends Record, T> R with(R record, Component<R, T> component, T value) {
        String name = accessorName(component);
        RecordComponent[] components = record.getClass().getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        boolean found = false;
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                if (components[i].getName().equals(name)) {
                    args[i] = value;
                    found = true;
                } else {
                    args[i] = components[i].getAccessor().invoke(record);
                }
            }
            if (!found) {
                throw new IllegalArgumentException(name + " is not a component of " + record.getClass().getName());
            }
            Constructor<?> canonical = record.getClass().getDeclaredConstructor(types);
            @SuppressWarnings("unchecked")
            R copy = (R) canonical.newInstance(args);
            return copy;
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r; // the canonical constructor refused the value
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot copy " + record.getClass().getName(), e);
        }
    }

    /** The name of the method {@code reference} refers to. */
    private static String accessorName(Serializable reference) {
        try {
            Method writeReplace = reference.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            return ((SerializedLambda) writeReplace.invoke(reference)).getImplMethodName();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("a component is named by a method reference (Options::name)", e);
        }
    }
}

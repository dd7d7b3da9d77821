package io.extsock.it.nio.programs;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.spi.SelectorProvider;

/**
 * What a program prints to show whose channels it ran on: the JVM's provider, and the classes of
 * a channel and a selector that the program itself used, found where its library keeps them.
 */
public final class ProviderProof {

    private ProviderProof() {
    }

    public static void printJvmsProvider(String who) {
        System.out.println(who + " provider " + SelectorProvider.provider().getClass().getName());
    }

    public static void print(String who, String what, Object object) {
        System.out.println(who + " " + what + " " + object.getClass().getName());
    }

    /** The value of a field, reached through private fields of the JDK's or a library's classes. */
    public static Object field(Object owner, String name) throws ReflectiveOperationException {
        for (Class<?> type = owner.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field.get(owner);
            } catch (NoSuchFieldException e) {
                // a superclass's
            }
        }
        throw new NoSuchFieldException(owner.getClass().getName() + "." + name);
    }

    /** The result of a no-argument method that its class hides (protected or private). */
    public static Object call(Object owner, Class<?> declaring, String name) throws ReflectiveOperationException {
        Method method = declaring.getDeclaredMethod(name);
        method.setAccessible(true);
        return method.invoke(owner);
    }
}

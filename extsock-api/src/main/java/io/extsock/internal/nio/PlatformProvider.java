package io.extsock.internal.nio;

import io.extsock.ExtendedSelectorProvider;
import java.lang.reflect.InvocationTargetException;
import java.nio.channels.spi.SelectorProvider;

/**
 * The JDK's default {@link SelectorProvider}, whose channels extsock's channels run on, and which
 * extsock's own sockets and engine use, so that they are never channels of extsock's provider
 * themselves: the JVM's provider, unless extsock's is the JVM's (named by the system property),
 * in which case the JDK's default is reached directly, since no public method returns it once
 * another provider is installed.
 */
public final class PlatformProvider {

    /** The system property that names the JVM's provider. */
    static final String PROPERTY = "java.nio.channels.spi.SelectorProvider";
    private static final String DEFAULT_PROVIDER = "sun.nio.ch.DefaultSelectorProvider";

    /** Once found: the JDK's own for the JVM's life (the JVM's provider is chosen once, too). */
    private static volatile SelectorProvider found;

    private PlatformProvider() {
    }

    /**
     * The JDK's default provider.
     *
     * @return it
     * @throws IllegalStateException if extsock's provider is the JVM's and the JDK's default is
     *         out of reach, naming the option that opens it
     */
    public static SelectorProvider get() {
        SelectorProvider known = found;
        if (known == null) {
            known = find();
            found = known;
        }
        return known;
    }

    private static SelectorProvider find() {
        String installed = System.getProperty(PROPERTY);
        if (installed == null || !installed.equals(ExtendedSelectorProvider.class.getName())) {
            // Asking the JVM for its provider while it makes ours would make another of ours.
            SelectorProvider jvms = SelectorProvider.provider();
            if (!(jvms instanceof ExtendedSelectorProvider)) {
                return jvms;
            }
        }
        return jdkDefault();
    }

    private static SelectorProvider jdkDefault() {
        try {
            return (SelectorProvider) Class.forName(DEFAULT_PROVIDER).getMethod("get").invoke(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("extsock's SelectorProvider is the JVM's (" + PROPERTY + "), so it must"
                    + " reach the JDK's own, which needs --add-exports java.base/sun.nio.ch="
                    + moduleName() + " (extsock's agent opens it itself)", e);
        } catch (ReflectiveOperationException | ClassCastException e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            throw new IllegalStateException("the JDK's default SelectorProvider (" + DEFAULT_PROVIDER
                    + ".get()) is not available on this JDK: " + cause, cause);
        }
    }

    private static String moduleName() {
        Module module = PlatformProvider.class.getModule();
        return module.isNamed() ? module.getName() : "ALL-UNNAMED";
    }
}

package io.extsock.internal;

import io.extsock.IwarpUnavailableException;
import io.extsock.spi.IwarpProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the iWARP providers, once, through {@link ServiceLoader}: the software engine, which
 * takes over connected channels, and a device provider, which makes its own connections.
 */
public final class IwarpProviders {

    private static volatile List<IwarpProvider> installed;

    private IwarpProviders() {
    }

    /**
     * The software engine on the class path or module path: the first provider that takes
     * over a connected channel.
     *
     * @throws IwarpUnavailableException when there is none
     */
    public static IwarpProvider require() throws IwarpUnavailableException {
        for (IwarpProvider provider : installed()) {
            if (!provider.makesOwnConnections()) {
                return provider;
            }
        }
        throw new IwarpUnavailableException("iWARP engine is not available: no "
                + IwarpProvider.class.getName() + " was found on the class path or module path"
                + " (add the extsock-core jar to use IWARP_MODE)");
    }

    /**
     * The device provider on the class path or module path, if there is one: the first
     * provider that makes its own connections.
     *
     * @throws IwarpUnavailableException when a provider failed to load
     */
    public static Optional<IwarpProvider> device() throws IwarpUnavailableException {
        return installed().stream().filter(IwarpProvider::makesOwnConnections).findFirst();
    }

    private static List<IwarpProvider> installed() throws IwarpUnavailableException {
        List<IwarpProvider> found = installed;
        if (found == null) {
            found = load();
            installed = found;
        }
        return found;
    }

    private static List<IwarpProvider> load() throws IwarpUnavailableException {
        try {
            List<IwarpProvider> providers = new ArrayList<>();
            ServiceLoader.load(IwarpProvider.class).forEach(providers::add);
            return List.copyOf(providers);
        } catch (ServiceConfigurationError e) {
            IwarpUnavailableException unavailable = new IwarpUnavailableException(
                    "iWARP engine is not available: its provider failed to load: " + e.getMessage());
            unavailable.initCause(e);
            throw unavailable;
        }
    }
}

package io.extsock.internal;

import io.extsock.IwarpUnavailableException;
import io.extsock.spi.IwarpProvider;
import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds the iWARP engine, once, through {@link ServiceLoader}. */
public final class IwarpProviders {

    private static volatile IwarpProvider provider;

    private IwarpProviders() {
    }

    /**
     * The iWARP provider on the class path or module path.
     *
     * @throws IwarpUnavailableException when there is none
     */
    public static IwarpProvider require() throws IwarpUnavailableException {
        IwarpProvider found = provider;
        if (found == null) {
            found = load();
            provider = found;
        }
        return found;
    }

    private static IwarpProvider load() throws IwarpUnavailableException {
        try {
            Iterator<IwarpProvider> providers = ServiceLoader.load(IwarpProvider.class).iterator();
            if (providers.hasNext()) {
                return providers.next();
            }
        } catch (ServiceConfigurationError e) {
            IwarpUnavailableException unavailable = new IwarpUnavailableException(
                    "iWARP engine is not available: its provider failed to load: " + e.getMessage());
            unavailable.initCause(e);
            throw unavailable;
        }
        throw new IwarpUnavailableException("iWARP engine is not available: no "
                + IwarpProvider.class.getName() + " was found on the class path or module path"
                + " (add the extsock-core jar to use IWARP_MODE)");
    }
}

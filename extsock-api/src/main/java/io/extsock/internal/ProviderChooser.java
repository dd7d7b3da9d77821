package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.IwarpUnavailableException;
import io.extsock.spi.IwarpProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketOption;
import java.util.Map;
import java.util.Optional;

/**
 * Decides, per connection switched at connect or accept, whether it runs on an RDMA device or
 * on the software engine, as {@link IwarpOptions#PROVIDER} asks: SOFTWARE never asks the
 * device provider; AUTO takes a device when the address is on one and the software engine
 * otherwise, whatever the reason; DEVICE takes a device or fails, naming why.
 */
final class ProviderChooser {

    /** Where the device provider comes from: the installed one, or a test's. */
    interface DeviceProviders {
        Optional<IwarpProvider> device() throws IOException;
    }

    /** The chosen device and the provider that runs connections on it. */
    record DeviceChoice(IwarpProvider provider, String device) {
    }

    private static final ProviderChooser INSTALLED = new ProviderChooser(IwarpProviders::device);

    private final DeviceProviders providers;

    ProviderChooser(DeviceProviders providers) {
        this.providers = providers;
    }

    /** The chooser over the providers found with ServiceLoader. */
    static ProviderChooser installed() {
        return INSTALLED;
    }

    /**
     * Chooses for a connection with {@code address}.
     *
     * @param settings the socket's iWARP options (PROVIDER among them, or its default)
     * @param address  a connecting socket's peer address, or a listener's bound address
     * @param what     what is being set up, for the error: "connect to 10.0.0.2:7000"
     * @return the device to run on; empty for the software engine
     * @throws IwarpUnavailableException with DEVICE, naming why no device can carry it
     */
    Optional<DeviceChoice> choose(Map<SocketOption<?>, Object> settings, InetAddress address, String what)
            throws IwarpUnavailableException {
        IwarpOptions.Provider wanted = IwarpOptionValues.valueIn(settings, IwarpOptions.PROVIDER);
        if (wanted == IwarpOptions.Provider.SOFTWARE) {
            return Optional.empty();
        }
        boolean required = wanted == IwarpOptions.Provider.DEVICE;
        if (!required && address.isAnyLocalAddress()) {
            return Optional.empty();  // a wildcard listener serves interfaces with a device and without
        }
        Optional<IwarpProvider> device;
        try {
            device = providers.device();
        } catch (IOException e) {
            return failOrSoftware(required, what + ": the device provider failed to load: " + e.getMessage(), e);
        }
        if (device.isEmpty()) {
            return failOrSoftware(required, what + ": no device provider is on the class path or module path"
                    + " (add extsock-rdma, which needs JDK 22 or later)", null);
        }
        Optional<String> deviceName;
        try {
            deviceName = device.get().deviceFor(address);
        } catch (IOException | RuntimeException e) {
            return failOrSoftware(required, what + ": " + device.get().name() + " cannot run connections on this"
                    + " host: " + e.getMessage(), e);
        }
        if (deviceName.isEmpty()) {
            return failOrSoftware(required, what + ": " + address.getHostAddress() + " is on no RDMA device"
                    + " (use an address of an RDMA device's interface, or IWARP_PROVIDER auto or software)", null);
        }
        return Optional.of(new DeviceChoice(device.get(), deviceName.get()));
    }

    private static Optional<DeviceChoice> failOrSoftware(boolean required, String why, Throwable cause)
            throws IwarpUnavailableException {
        if (!required) {
            return Optional.empty();
        }
        IwarpUnavailableException unavailable = new IwarpUnavailableException(
                "IWARP_PROVIDER is device, but no device can carry " + why);
        if (cause != null) {
            unavailable.initCause(cause);
        }
        throw unavailable;
    }
}

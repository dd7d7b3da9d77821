package io.extsock.rdma.verbs;

import io.extsock.rdma.ffi.ContextOps;
import io.extsock.rdma.ffi.Verbs;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * An open RDMA device ({@code struct ibv_context}) and its data-path ops. Opened by name, it is
 * closed with {@link #close()}; taken from an rdma_cm identifier (librdmacm opens the device of
 * the address it resolves or binds), it belongs to librdmacm and {@code close} leaves it open.
 */
public final class DeviceContext implements AutoCloseable {

    private final Verbs verbs;
    private final MemorySegment context;
    private final ContextOps ops;
    private final boolean owned;
    private boolean closed;

    private DeviceContext(Verbs verbs, MemorySegment context, boolean owned) {
        this.verbs = verbs;
        this.context = context;
        this.ops = ContextOps.of(context);
        this.owned = owned;
    }

    /**
     * @return the names of the host's RDMA devices
     * @throws io.extsock.rdma.ffi.RdmaUnavailableException if libibverbs or any device is missing, with the fix
     */
    public static List<String> deviceNames() throws IOException {
        return Verbs.load().deviceNames();
    }

    /**
     * Opens a device by name ({@code siw0}, {@code mlx5_0}).
     *
     * @throws io.extsock.rdma.ffi.RdmaUnavailableException if libibverbs or the device is missing, with the fix
     */
    public static DeviceContext open(String name) throws IOException {
        Verbs verbs = Verbs.load();
        return new DeviceContext(verbs, verbs.openDevice(name), true);
    }

    /**
     * The device of an rdma_cm identifier ({@code id->verbs}), which librdmacm owns.
     *
     * @param verbs   libibverbs
     * @param context a {@code struct ibv_context *}
     */
    public static DeviceContext of(Verbs verbs, MemorySegment context) {
        return new DeviceContext(verbs, context, false);
    }

    /** @return libibverbs */
    Verbs verbs() {
        return verbs;
    }

    /** @return the {@code struct ibv_context *} */
    public MemorySegment context() {
        return context;
    }

    /** @return the provider's data-path entry points */
    public ContextOps ops() {
        return ops;
    }

    /** Allocates a protection domain, which every registration and queue pair of a connection shares. */
    public ProtectionDomain allocatePd() throws IOException {
        return new ProtectionDomain(verbs, verbs.allocPd(context));
    }

    /**
     * A completion queue with a completion channel of its own, whose events the device's event
     * thread waits for ({@link io.extsock.rdma.events.CompletionEventSource}).
     *
     * @param entries how many completions it holds
     */
    public CompletionQueue createCq(int entries) throws IOException {
        if (entries <= 0) {
            throw new IllegalArgumentException("a completion queue holds at least one entry, not " + entries);
        }
        MemorySegment channel = verbs.createCompChannel(context);
        try {
            return new CompletionQueue(verbs, ops, channel,
                    verbs.createCq(context, entries, MemorySegment.NULL, channel));
        } catch (IOException | RuntimeException e) {
            verbs.destroyCompChannel(channel);
            throw e;
        }
    }

    /** Closes the device if this binding opened it. */
    @Override
    public void close() throws IOException {
        if (owned && !closed) {
            closed = true;
            verbs.closeDevice(context);
        }
    }
}

package io.extsock.rdma.ffi;

import static io.extsock.rdma.ffi.NativeCalls.C_INT;
import static io.extsock.rdma.ffi.NativeCalls.C_LONG;
import static io.extsock.rdma.ffi.NativeCalls.C_POINTER;
import static io.extsock.rdma.ffi.NativeCalls.rethrow;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * libibverbs' exported functions: devices, protection domains, completion channels and queues,
 * memory registration. The data-path verbs are not here: they are static inline in verbs.h and
 * reach the provider through the context's ops table ({@link ContextOps}).
 *
 * <p>A call that fails throws an exception naming the call and errno's text.
 */
public final class Verbs {

    /** The library's run-time name. */
    public static final String SONAME = "libibverbs.so.1";

    private final MethodHandle getDeviceList;
    private final MethodHandle freeDeviceList;
    private final MethodHandle getDeviceName;
    private final MethodHandle openDevice;
    private final MethodHandle closeDevice;
    private final MethodHandle allocPd;
    private final MethodHandle deallocPd;
    private final MethodHandle createCompChannel;
    private final MethodHandle destroyCompChannel;
    private final MethodHandle createCq;
    private final MethodHandle destroyCq;
    private final MethodHandle getCqEvent;
    private final MethodHandle ackCqEvents;
    private final MethodHandle regMr;
    private final MethodHandle deregMr;
    private final MethodHandle wcStatusStr;

    private Verbs(SymbolLookup lib) throws RdmaUnavailableException {
        getDeviceList = f(lib, "ibv_get_device_list", FunctionDescriptor.of(C_POINTER, C_POINTER), true);
        freeDeviceList = f(lib, "ibv_free_device_list", FunctionDescriptor.ofVoid(C_POINTER), false);
        getDeviceName = f(lib, "ibv_get_device_name", FunctionDescriptor.of(C_POINTER, C_POINTER), false);
        openDevice = f(lib, "ibv_open_device", FunctionDescriptor.of(C_POINTER, C_POINTER), true);
        closeDevice = f(lib, "ibv_close_device", FunctionDescriptor.of(C_INT, C_POINTER), true);
        allocPd = f(lib, "ibv_alloc_pd", FunctionDescriptor.of(C_POINTER, C_POINTER), true);
        deallocPd = f(lib, "ibv_dealloc_pd", FunctionDescriptor.of(C_INT, C_POINTER), false);
        createCompChannel = f(lib, "ibv_create_comp_channel", FunctionDescriptor.of(C_POINTER, C_POINTER), true);
        destroyCompChannel = f(lib, "ibv_destroy_comp_channel", FunctionDescriptor.of(C_INT, C_POINTER), false);
        createCq = f(lib, "ibv_create_cq",
                FunctionDescriptor.of(C_POINTER, C_POINTER, C_INT, C_POINTER, C_POINTER, C_INT), true);
        destroyCq = f(lib, "ibv_destroy_cq", FunctionDescriptor.of(C_INT, C_POINTER), false);
        getCqEvent = f(lib, "ibv_get_cq_event", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER), true);
        ackCqEvents = f(lib, "ibv_ack_cq_events", FunctionDescriptor.ofVoid(C_POINTER, C_INT), false);
        // The exported ibv_reg_mr: verbs.h's macro calls it whenever no optional access flag is set,
        // and this binding sets none.
        regMr = f(lib, "ibv_reg_mr", FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_LONG, C_INT), true);
        deregMr = f(lib, "ibv_dereg_mr", FunctionDescriptor.of(C_INT, C_POINTER), false);
        wcStatusStr = f(lib, "ibv_wc_status_str", FunctionDescriptor.of(C_POINTER, C_INT), false);
    }

    private static MethodHandle f(SymbolLookup lib, String name, FunctionDescriptor descriptor, boolean errno)
            throws RdmaUnavailableException {
        return NativeCalls.function(lib, SONAME, name, descriptor, errno);
    }

    private static final class Loaded {
        static final Verbs VERBS;
        static final RdmaUnavailableException FAILURE;

        static {
            Verbs verbs = null;
            RdmaUnavailableException failure = null;
            try {
                verbs = new Verbs(NativeCalls.library(SONAME, RdmaErrors.INSTALL_RDMA_CORE));
            } catch (RdmaUnavailableException e) {
                failure = e;
            }
            VERBS = verbs;
            FAILURE = failure;
        }
    }

    /**
     * @return libibverbs, loaded on first use
     * @throws RdmaUnavailableException if it is not installed, with the fix
     */
    public static Verbs load() throws RdmaUnavailableException {
        if (Loaded.FAILURE != null) {
            throw new RdmaUnavailableException(Loaded.FAILURE.getMessage());
        }
        return Loaded.VERBS;
    }

    /**
     * The devices' names, as {@code ibv_devices} lists them.
     *
     * @return the names, at least one
     * @throws RdmaUnavailableException if there is none, with the fix
     */
    public List<String> deviceNames() throws IOException {
        return withDevices((devices, errnoState) -> {
            List<String> names = new ArrayList<>();
            for (MemorySegment device : devices) {
                names.add(deviceName(device));
            }
            return names;
        });
    }

    /**
     * {@code ibv_open_device} of the device named {@code name}.
     *
     * @param name the device's name ({@code siw0}, {@code mlx5_0})
     * @return the {@code struct ibv_context *}
     * @throws RdmaUnavailableException if there is no such device, with the ones there are
     */
    public MemorySegment openDevice(String name) throws IOException {
        return withDevices((devices, errnoState) -> {
            List<String> names = new ArrayList<>();
            for (MemorySegment device : devices) {
                if (deviceName(device).equals(name)) {
                    MemorySegment context = (MemorySegment) openDevice.invokeExact(errnoState, device);
                    return pointerOrFailure("ibv_open_device(" + name + ")", context, errnoState)
                            .reinterpret(RdmaStructs.IBV_CONTEXT.layout().byteSize());
                }
                names.add(deviceName(device));
            }
            throw new RdmaUnavailableException("no RDMA device " + name + " on this host; it has " + names);
        });
    }

    /** What is done with the device list while it is held. */
    @FunctionalInterface
    private interface DeviceListUse<T> {
        T use(List<MemorySegment> devices, MemorySegment errnoState) throws Throwable;
    }

    /** Gets the device list, at least one device long, and frees it after {@code use}. */
    private <T> T withDevices(DeviceListUse<T> use) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(C_INT);
            MemorySegment state = NativeCalls.errnoState(arena);
            MemorySegment list = (MemorySegment) getDeviceList.invokeExact(state, count);
            if (list.equals(MemorySegment.NULL)) {
                throw RdmaErrors.noDevice(NativeCalls.errno(state));
            }
            try {
                int n = count.get(C_INT, 0);
                if (n == 0) {
                    throw RdmaErrors.noDevice(0);
                }
                MemorySegment array = list.reinterpret(C_POINTER.byteSize() * n);
                List<MemorySegment> devices = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    devices.add(array.getAtIndex(C_POINTER, i));
                }
                return use.use(devices, state);
            } finally {
                freeDeviceList.invokeExact(list);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /**
     * The name of an open device, as {@code ibv_devices} lists it.
     *
     * @param context a {@code struct ibv_context *}
     * @return {@code ibv_get_device_name(context->device)}
     */
    public String deviceNameOf(MemorySegment context) {
        MemorySegment device = context.reinterpret(RdmaStructs.IBV_CONTEXT.layout().byteSize())
                .get(C_POINTER, RdmaStructs.IBV_CONTEXT.offset("device"));
        try {
            return deviceName(device);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    private String deviceName(MemorySegment device) throws Throwable {
        return NativeCalls.string((MemorySegment) getDeviceName.invokeExact(device));
    }

    /** {@code ibv_close_device}. */
    public void closeDevice(MemorySegment context) throws IOException {
        Libc.check("ibv_close_device", state -> (int) closeDevice.invokeExact(state, context));
    }

    /** {@code ibv_alloc_pd}. @return the {@code struct ibv_pd *} */
    public MemorySegment allocPd(MemorySegment context) throws IOException {
        return pointerCall("ibv_alloc_pd", state -> (MemorySegment) allocPd.invokeExact(state, context));
    }

    /** {@code ibv_dealloc_pd}, which returns errno itself. */
    public void deallocPd(MemorySegment pd) throws IOException {
        errnoResult("ibv_dealloc_pd", () -> (int) deallocPd.invokeExact(pd));
    }

    /** {@code ibv_create_comp_channel}. @return the {@code struct ibv_comp_channel *} */
    public MemorySegment createCompChannel(MemorySegment context) throws IOException {
        return pointerCall("ibv_create_comp_channel",
                state -> (MemorySegment) createCompChannel.invokeExact(state, context));
    }

    /** {@code ibv_destroy_comp_channel}: fails with EBUSY while a CQ still uses the channel. */
    public void destroyCompChannel(MemorySegment channel) throws IOException {
        errnoResult("ibv_destroy_comp_channel", () -> (int) destroyCompChannel.invokeExact(channel));
    }

    /** {@code ibv_create_cq} on completion vector 0. @return the {@code struct ibv_cq *} */
    public MemorySegment createCq(MemorySegment context, int entries, MemorySegment cqContext, MemorySegment channel)
            throws IOException {
        return pointerCall("ibv_create_cq(" + entries + " entries)",
                state -> (MemorySegment) createCq.invokeExact(state, context, entries, cqContext, channel, 0));
    }

    /** {@code ibv_destroy_cq}: waits until every event got from the CQ's channel was acknowledged. */
    public void destroyCq(MemorySegment cq) throws IOException {
        errnoResult("ibv_destroy_cq", () -> (int) destroyCq.invokeExact(cq));
    }

    /**
     * {@code ibv_get_cq_event} on a non-blocking channel.
     *
     * @param cqOut where the CQ of the event goes (one pointer)
     * @return true if an event was taken, false if none was waiting
     */
    public boolean getCqEvent(MemorySegment channel, MemorySegment cqOut, MemorySegment cqContextOut)
            throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = NativeCalls.errnoState(arena);
            int result = (int) getCqEvent.invokeExact(state, channel, cqOut, cqContextOut);
            if (result == 0) {
                return true;
            }
            int errno = NativeCalls.errno(state);
            if (errno == RdmaConstants.EAGAIN) {
                return false;
            }
            throw Libc.failure("ibv_get_cq_event", errno);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** {@code ibv_ack_cq_events}. */
    public void ackCqEvents(MemorySegment cq, int events) {
        try {
            ackCqEvents.invokeExact(cq, events);
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /**
     * {@code ibv_reg_mr}: pins and registers native memory.
     *
     * @return the {@code struct ibv_mr *}
     * @throws RdmaUnavailableException when RLIMIT_MEMLOCK forbids the pin, with the fix
     */
    public MemorySegment regMr(MemorySegment pd, MemorySegment memory, int access) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = NativeCalls.errnoState(arena);
            MemorySegment mr = (MemorySegment) regMr.invokeExact(state, pd, memory, memory.byteSize(), access);
            if (mr.equals(MemorySegment.NULL)) {
                throw RdmaErrors.registrationFailed(memory.byteSize(), NativeCalls.errno(state), Libc.memlockLimit());
            }
            return mr.reinterpret(RdmaStructs.IBV_MR.size());
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** {@code ibv_dereg_mr}: unpins the region; before the memory is freed, always. */
    public void deregMr(MemorySegment mr) throws IOException {
        errnoResult("ibv_dereg_mr", () -> (int) deregMr.invokeExact(mr));
    }

    /** @return rdma-core's name for a work completion's status, such as "Work Request Flushed Error" */
    public String wcStatus(int status) {
        try {
            return NativeCalls.string((MemorySegment) wcStatusStr.invokeExact(status));
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    @FunctionalInterface
    interface PointerCall {
        MemorySegment call(MemorySegment errnoState) throws Throwable;
    }

    @FunctionalInterface
    interface ErrnoResult {
        int call() throws Throwable;
    }

    static MemorySegment pointerCall(String what, PointerCall call) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = NativeCalls.errnoState(arena);
            return pointerOrFailure(what, call.call(state), state);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    private static MemorySegment pointerOrFailure(String what, MemorySegment pointer, MemorySegment state)
            throws IOException {
        if (pointer.equals(MemorySegment.NULL)) {
            throw Libc.failure(what, NativeCalls.errno(state));
        }
        return pointer;
    }

    /** libibverbs' destroy calls return 0 or an errno value rather than setting errno. */
    static void errnoResult(String what, ErrnoResult call) throws IOException {
        int result;
        try {
            result = call.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
        if (result != 0) {
            throw Libc.failure(what, Math.abs(result));
        }
    }
}

package io.extsock.rdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * How the binding reaches C: a library by its run-time name (the {@code .so.1} that rdma-core's
 * runtime packages install, not the development symlink), downcall handles by exported symbol,
 * and errno captured by the call itself (the JVM may overwrite errno between two downcalls).
 */
public final class NativeCalls {

    static final Linker LINKER = Linker.nativeLinker();

    private static final VarHandle ERRNO = Linker.Option.captureStateLayout()
            .varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private NativeCalls() {
    }

    /**
     * Opens a shared library for the life of the JVM.
     *
     * @param soname the library's run-time name, {@code libibverbs.so.1}
     * @param fix    what installs it, for the message when it is missing
     * @return the library's symbols
     * @throws RdmaUnavailableException if the library cannot be loaded
     */
    public static SymbolLookup library(String soname, String fix) throws RdmaUnavailableException {
        try {
            return SymbolLookup.libraryLookup(soname, Arena.global());
        } catch (IllegalArgumentException notFound) {
            throw new RdmaUnavailableException(soname + " cannot be loaded (" + notFound.getMessage() + "): " + fix);
        }
    }

    /** A downcall to an exported function; with {@code errno}, its first parameter is the state to capture errno into. */
    static MethodHandle function(SymbolLookup library, String soname, String symbol, FunctionDescriptor descriptor,
                                 boolean errno) throws RdmaUnavailableException {
        MemorySegment address = library.find(symbol).orElseThrow(() -> new RdmaUnavailableException(
                soname + " has no symbol " + symbol + ": the installed rdma-core is too old or not rdma-core;"
                        + " install a current one"));
        return errno ? LINKER.downcallHandle(address, descriptor, Linker.Option.captureCallState("errno"))
                : LINKER.downcallHandle(address, descriptor);
    }

    /** A downcall to a function pointer known only at run time (the ops table's entries): the address comes first. */
    static MethodHandle pointer(FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(descriptor);
    }

    /** @return a buffer for one call's captured errno, from {@code arena} */
    public static MemorySegment errnoState(Arena arena) {
        return arena.allocate(Linker.Option.captureStateLayout());
    }

    /** @return the errno a call captured into {@code state} */
    public static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** A C string, or "" for NULL. */
    static String string(MemorySegment pointer) {
        return pointer.equals(MemorySegment.NULL) ? "" : pointer.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** A pointer with the size of what it points to, so that its members can be read. */
    static MemorySegment sized(MemorySegment pointer, long size) {
        return pointer.reinterpret(size);
    }

    static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    static final java.lang.foreign.AddressLayout C_POINTER = ValueLayout.ADDRESS;

    /** Throwables from invokeExact are the callee's runtime exceptions or errors: passed on unchanged. */
    static RuntimeException rethrow(Throwable thrown) {
        if (thrown instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (thrown instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException(thrown);
    }
}

package io.extsock.core.verbs;

import io.extsock.core.nativecall.LibcMemoryCalls;
import java.nio.ByteBuffer;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.TypeAlias;

/**
 * {@link NativeMemory} through jnr-ffi: the only class of the engine that touches jnr-ffi (with
 * the binding interface {@link LibcMemoryCalls}). {@link MemoryPinning} loads it on the first pin,
 * after checking that jnr-ffi is there at all, so an engine that never pins runs without jnr-ffi,
 * jffi and ASM. Constructing it loads the C library and may throw a LinkageError or a
 * RuntimeException when jnr-ffi finds no native stub for the platform.
 */
final class JnrNativeMemory implements NativeMemory {

    private final Runtime runtime;
    private final LibcMemoryCalls calls;
    private final long pageSize;
    private final boolean bsdLike;
    private final int rlimitMemlock;

    JnrNativeMemory() {
        Platform platform = Platform.getNativePlatform();
        calls = LibraryLoader.create(LibcMemoryCalls.class).failImmediately().load(platform.getStandardCLibraryName());
        runtime = Runtime.getRuntime(calls);
        pageSize = calls.getpagesize();
        Platform.OS os = platform.getOS();
        bsdLike = isBsdLike(os);
        rlimitMemlock = os == Platform.OS.LINUX || os == Platform.OS.ZLINUX ? MemoryPinning.LINUX_RLIMIT_MEMLOCK
                : bsdLike ? MemoryPinning.BSD_RLIMIT_MEMLOCK : -1;
    }

    private static boolean isBsdLike(Platform.OS os) {
        switch (os) {
            case DARWIN:
            case FREEBSD:
            case NETBSD:
            case OPENBSD:
            case DRAGONFLY:
            case MIDNIGHTBSD:
                return true;
            default:
                return false;
        }
    }

    @Override
    public long address(ByteBuffer direct) {
        return Pointer.wrap(runtime, direct).address();
    }

    @Override
    public int mlock(long address, long length) {
        return calls.mlock(Pointer.wrap(runtime, address), length);
    }

    @Override
    public int munlock(long address, long length) {
        return calls.munlock(Pointer.wrap(runtime, address), length);
    }

    @Override
    public int lastError() {
        return runtime.getLastError();
    }

    @Override
    public long pageSize() {
        return pageSize;
    }

    @Override
    public boolean bsdLike() {
        return bsdLike;
    }

    @Override
    public long memlockSoftLimit() {
        if (rlimitMemlock < 0) {
            return MemoryPinning.LIMIT_UNKNOWN;
        }
        int rlimSize = runtime.findType(TypeAlias.rlim_t).size();
        Pointer limits = Memory.allocateDirect(runtime, 2 * rlimSize);  // struct rlimit {cur, max}
        if (calls.getrlimit(rlimitMemlock, limits) != 0) {
            return MemoryPinning.LIMIT_UNKNOWN;
        }
        long soft = rlimSize == Long.BYTES ? limits.getLong(0) : Integer.toUnsignedLong(limits.getInt(0));
        long infinity = rlimSize == Long.BYTES ? -1L : 0xFFFF_FFFFL;
        return soft == infinity ? MemoryPinning.LIMIT_UNLIMITED : soft;
    }
}

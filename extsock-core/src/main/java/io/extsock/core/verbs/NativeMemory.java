package io.extsock.core.verbs;

import java.nio.ByteBuffer;

/**
 * The native calls pinning makes (mlock(2) and its kin), so that {@link MemoryPinning} needs no
 * native library of its own: {@link JnrNativeMemory} implements them when jnr-ffi, an optional
 * dependency, is on the class path.
 */
interface NativeMemory {

    /** The native address of a direct buffer's first byte; 0 if it has none. */
    long address(ByteBuffer direct);

    /** mlock(2) of {@code [address, address + length)}: 0, or -1 with {@link #lastError()} set. */
    int mlock(long address, long length);

    /** munlock(2) of the range: 0, or -1 with {@link #lastError()} set. */
    int munlock(long address, long length);

    /** errno of this thread's last failed call. */
    int lastError();

    /** The page size, the unit mlock and munlock work in. */
    long pageSize();

    /** Whether the OS numbers its errors and limits as macOS and the BSDs do (else as Linux). */
    boolean bsdLike();

    /**
     * The RLIMIT_MEMLOCK soft limit in bytes, {@link MemoryPinning#LIMIT_UNLIMITED} or {@link
     * MemoryPinning#LIMIT_UNKNOWN}.
     */
    long memlockSoftLimit();
}

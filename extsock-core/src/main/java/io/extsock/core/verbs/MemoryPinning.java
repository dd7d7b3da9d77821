package io.extsock.core.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Locks the pages of registered regions in RAM with mlock(2), as RDMA adapters pin the user
 * buffers they may reach, and unlocks them with munlock(2) at deregistration. Native calls go
 * through {@link NativeMemory}, which jnr-ffi implements ({@link JnrNativeMemory}); the buffer's
 * address comes from jnr-ffi's JNI wrapper of a direct buffer, not from JDK internals.
 *
 * <p>Locks are per process and not counted per page: a page locked twice is unlocked by one
 * munlock. Two regions often share a page (small direct buffers sit side by side), so a region's
 * pages are unlocked only where no other pinned region still covers them. All of this is
 * process-wide state behind one lock; pinning is rare and never on a data path.
 *
 * <p>jnr-ffi is an optional dependency: this class does not touch it, and {@link JnrNativeMemory}
 * is loaded on the first pin only. Without jnr-ffi on the class path, pinning fails with an
 * IOException that says what to add; when jnr-ffi cannot load its native stub (an unusual
 * platform), with one that says so. Nothing else of the engine needs native code. On the module
 * path pinning fails the second way today: jnr-ffi implements {@link
 * io.extsock.core.nativecall.LibcMemoryCalls} with a class it generates into an unnamed module,
 * which needs the ASM modules, which only --add-modules brings in.
 */
final class MemoryPinning {

    /** RLIMIT_MEMLOCK as Linux numbers it (include/uapi/asm-generic/resource.h). */
    static final int LINUX_RLIMIT_MEMLOCK = 8;
    /** RLIMIT_MEMLOCK as macOS and the BSDs number it (sys/resource.h). */
    static final int BSD_RLIMIT_MEMLOCK = 6;

    /** errno values of mlock(2) failures; the same on Linux, macOS and the BSDs, except EAGAIN. */
    static final int EPERM = 1;
    static final int ENOMEM = 12;
    static final int EINVAL = 22;
    static final int LINUX_EAGAIN = 11;
    static final int BSD_EAGAIN = 35;

    /** A soft limit that could not be read. */
    static final long LIMIT_UNKNOWN = -2;
    /** RLIM_INFINITY. */
    static final long LIMIT_UNLIMITED = -1;

    private static final Object LOCK = new Object();
    private static final List<PinnedRange> PINNED = new ArrayList<>();  // guarded by LOCK
    private static long pinnedBytes;  // guarded by LOCK

    private MemoryPinning() {
    }

    /**
     * Locks the pages of {@code memory}, from its first byte to its capacity, in RAM.
     *
     * @throws IllegalArgumentException for a heap buffer, which the garbage collector may move
     * @throws IOException when the OS refuses, naming the limit and how to raise it, or when
     *     native access is unavailable
     */
    static PinnedRange pin(ByteBuffer memory) throws IOException {
        if (!memory.isDirect()) {
            throw new IllegalArgumentException("pinning needs a direct or mapped buffer: a heap buffer lives in the"
                    + " Java heap, where the garbage collector moves it");
        }
        long length = memory.capacity();
        NativeMemory access = NativeAccess.get(length);
        long address = access.address(memory);
        if (address == 0) {
            throw new IOException("cannot pin " + Sizes.describe(length) + " in RAM: the buffer has no native address");
        }
        synchronized (LOCK) {
            if (length > 0 && access.mlock(address, length) != 0) {
                int errno = access.lastError();
                throw new IOException(refusal(length, errnoName(errno, access.bsdLike()), access.memlockSoftLimit(),
                        pinnedBytes));
            }
            PinnedRange range = new PinnedRange(address, length);
            PINNED.add(range);
            pinnedBytes += length;
            return range;
        }
    }

    /** Unlocks the range's pages that no other pinned range covers; idempotent. */
    static void unpin(PinnedRange range) {
        synchronized (LOCK) {
            if (range.released()) {
                return;
            }
            range.markReleased();
            PINNED.remove(range);
            pinnedBytes -= range.length();
            if (range.length() == 0) {
                return;
            }
            NativeMemory access = NativeAccess.loaded();  // pin() succeeded, so it is loaded
            long page = access.pageSize();
            long from = range.address() & -page;
            long to = roundUp(range.end(), page);
            List<PinnedRange> others = new ArrayList<>(PINNED);
            others.sort(Comparator.comparingLong(PinnedRange::address));
            for (PinnedRange other : others) {
                long coveredFrom = other.address() & -page;
                long coveredTo = roundUp(other.end(), page);
                if (other.length() == 0 || coveredTo <= from || coveredFrom >= to) {
                    continue;
                }
                if (coveredFrom > from) {
                    unlock(access, from, coveredFrom);
                }
                from = Math.max(from, coveredTo);
            }
            if (from < to) {
                unlock(access, from, to);
            }
        }
    }

    /** The page size, the unit the OS locks in. */
    static long pageSize() throws IOException {
        return NativeAccess.get(0).pageSize();
    }

    private static void unlock(NativeMemory access, long from, long to) {
        // munlock only fails for ranges that were never mapped; nothing to do about it here.
        access.munlock(from, to - from);
    }

    private static long roundUp(long address, long page) {
        return address + page - 1 & -page;
    }

    /**
     * What to tell the application when mlock refuses: the size, the error, the limit in force
     * and the ways out.
     *
     * @param softLimit the RLIMIT_MEMLOCK soft limit in bytes, {@link #LIMIT_UNLIMITED} or {@link #LIMIT_UNKNOWN}
     */
    static String refusal(long requested, String errno, long softLimit, long alreadyPinned) {
        StringBuilder message = new StringBuilder("cannot pin ").append(Sizes.describe(requested))
                .append(" in RAM: mlock failed (").append(errno).append("): ");
        if (softLimit == LIMIT_UNLIMITED) {
            message.append("RLIMIT_MEMLOCK is unlimited, so the system has no more RAM it can lock");
            appendAlreadyPinned(message, alreadyPinned);
            return message.append("; free memory or register without pinning").toString();
        }
        if (softLimit == LIMIT_UNKNOWN) {
            message.append("the locked-memory limit RLIMIT_MEMLOCK (ulimit -l) could not be read");
        } else {
            message.append("RLIMIT_MEMLOCK allows ").append(Sizes.describe(softLimit))
                    .append(" locked per process (ulimit -l)");
        }
        appendAlreadyPinned(message, alreadyPinned);
        return message.append("; raise it (ulimit -l unlimited, or memlock in /etc/security/limits.conf)"
                + " or register without pinning").toString();
    }

    private static void appendAlreadyPinned(StringBuilder message, long alreadyPinned) {
        if (alreadyPinned > 0) {
            message.append(", and extsock holds ").append(Sizes.describe(alreadyPinned)).append(" of it already");
        }
    }

    private static String errnoName(int errno, boolean bsdLike) {
        if (errno == EPERM) {
            return "EPERM";
        }
        if (errno == ENOMEM) {
            return "ENOMEM";
        }
        if (errno == EINVAL) {
            return "EINVAL";
        }
        if (errno == (bsdLike ? BSD_EAGAIN : LINUX_EAGAIN)) {
            return "EAGAIN";
        }
        return "errno " + errno;
    }

    /**
     * The native calls, or why there are none; initialised on the first pin, so that an engine
     * that never pins never loads jnr-ffi (or looks for it).
     */
    private static final class NativeAccess {

        /** What registerPinned needs, and the way out: the message when jnr-ffi is absent. */
        static final String JNR_MISSING = "registerPinned needs com.github.jnr:jnr-ffi on the class path (or module"
                + " path); add it, or register without pinning";

        private static final NativeMemory INSTANCE;
        private static final String UNAVAILABLE;

        static {
            NativeMemory loaded = null;
            String failure = null;
            if (!jnrPresent()) {
                failure = JNR_MISSING;
            } else {
                try {
                    loaded = new JnrNativeMemory();
                } catch (LinkageError | RuntimeException e) {
                    failure = "native access through jnr-ffi is unavailable on this platform (" + causes(e)
                            + "); register without pinning";
                }
            }
            INSTANCE = loaded;
            UNAVAILABLE = failure;
        }

        /** Whether jnr-ffi can be seen from here: on the class path, or a module this one reads. */
        private static boolean jnrPresent() {
            try {
                Class.forName("jnr.ffi.LibraryLoader", false, MemoryPinning.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }

        /**
         * The exception and its causes, in one line: jnr-ffi wraps the real reason, and jffi
         * puts a stack trace into its message, of which only the first line says anything.
         */
        private static String causes(Throwable failure) {
            StringBuilder text = new StringBuilder(firstLine(failure));
            for (Throwable cause = failure.getCause(); cause != null && cause != failure; cause = cause.getCause()) {
                text.append(", caused by ").append(firstLine(cause));
                failure = cause;
            }
            return text.toString();
        }

        private static String firstLine(Throwable failure) {
            String text = failure.toString();
            int end = text.indexOf('\n');
            return (end < 0 ? text : text.substring(0, end)).strip();
        }

        /** The native calls, or an IOException saying why pinning {@code length} bytes is impossible. */
        static NativeMemory get(long length) throws IOException {
            if (INSTANCE == null) {
                throw new IOException("cannot pin " + Sizes.describe(length) + " in RAM: " + UNAVAILABLE);
            }
            return INSTANCE;
        }

        static NativeMemory loaded() {
            return INSTANCE;
        }
    }
}

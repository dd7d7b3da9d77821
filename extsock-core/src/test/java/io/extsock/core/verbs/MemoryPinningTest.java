package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

/**
 * Pinning really locks pages, as the kernel counts them (VmLck in /proc/self/status), and
 * unlocks only what no other pinned region still needs. The refusal paths run in child JVMs:
 * see {@link PinningRefusalTest}.
 */
class MemoryPinningTest {

    private static final Set<Access> LOCAL = EnumSet.of(Access.LOCAL_WRITE);
    private static final Path STATUS = Path.of("/proc/self/status");

    private final MemoryRegistry registry = new MemoryRegistry();

    @Test
    void pinnedRegionIsLockedInRamUntilDeregistered() throws IOException {
        assumeTrue(Files.isReadable(STATUS), "needs Linux's /proc/self/status to see locked memory");
        long before = lockedKib();
        // 32 KiB: within even the smallest default RLIMIT_MEMLOCK (64 KiB) of a user without CAP_IPC_LOCK.
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(32 << 10), LOCAL, true);
        assertTrue(region.isPinned());
        assertTrue(lockedKib() >= before + 32, "VmLck grew by the region's 32 KiB: " + before + " -> " + lockedKib());
        region.close();
        assertFalse(region.isPinned());
        assertEquals(before, lockedKib(), "deregistration unlocks the pages");
    }

    @Test
    void closeAllUnpins() throws IOException {
        assumeTrue(Files.isReadable(STATUS), "needs Linux's /proc/self/status to see locked memory");
        long before = lockedKib();
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(16 << 10), LOCAL, true);
        registry.closeAll();
        assertFalse(region.isPinned());
        assertEquals(before, lockedKib());
    }

    @Test
    void aPageSharedWithAnotherPinnedRegionStaysLocked() throws IOException {
        assumeTrue(Files.isReadable(STATUS), "needs Linux's /proc/self/status to see locked memory");
        long page = MemoryPinning.pageSize();
        ByteBuffer memory = ByteBuffer.allocateDirect(6 * (int) page);
        long base = Pointer.wrap(Runtime.getSystemRuntime(), memory).address();
        // Two regions that meet inside one page, not at a page boundary.
        int split = (int) (page - (base % page) + page + 100);
        ByteBuffer first = memory.duplicate().position(0).limit(split).slice();
        ByteBuffer second = memory.duplicate().position(split).limit(memory.capacity()).slice();
        long before = lockedKib();
        RegisteredRegion a = registry.register(first, LOCAL, true);
        RegisteredRegion b = registry.register(second, LOCAL, true);
        long secondPages = pages(base + split, base + memory.capacity(), page);
        a.close();
        assertEquals(before + secondPages * page / 1024, lockedKib(), "the page the regions share stays locked");
        b.close();
        assertEquals(before, lockedKib());
    }

    @Test
    void pinningNeedsADirectBuffer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> registry.register(ByteBuffer.allocate(4096), LOCAL, true));
        assertTrue(e.getMessage().contains("direct or mapped"), e.getMessage());
        assertEquals(0, registry.registeredCount());
    }

    @Test
    void zeroLengthBufferPinsTrivially() throws IOException {
        RegisteredRegion region = registry.register(ByteBuffer.allocateDirect(0), LOCAL, true);
        assertTrue(region.isPinned());
        region.close();
        assertFalse(region.isPinned());
    }

    @Test
    void refusalNamesTheLimitAndHowToRaiseIt() {
        String message = MemoryPinning.refusal(64L << 20, "ENOMEM", 8L << 20, 0);
        assertEquals("cannot pin 64 MiB in RAM: mlock failed (ENOMEM): RLIMIT_MEMLOCK allows 8 MiB locked per"
                + " process (ulimit -l); raise it (ulimit -l unlimited, or memlock in /etc/security/limits.conf)"
                + " or register without pinning", message);
    }

    @Test
    void refusalCountsWhatExtsockHoldsAlready() {
        String message = MemoryPinning.refusal(3L << 20, "EAGAIN", 8L << 20, 6L << 20);
        assertTrue(message.contains("RLIMIT_MEMLOCK allows 8 MiB locked per process (ulimit -l), and extsock holds"
                + " 6 MiB of it already"), message);
    }

    @Test
    void refusalWithoutALimitBlamesTheSystem() {
        String message = MemoryPinning.refusal(1L << 30, "ENOMEM", MemoryPinning.LIMIT_UNLIMITED, 0);
        assertTrue(message.startsWith("cannot pin 1 GiB in RAM: mlock failed (ENOMEM): RLIMIT_MEMLOCK is unlimited"),
                message);
        assertTrue(message.endsWith("register without pinning"), message);
    }

    @Test
    void refusalWhenTheLimitCannotBeRead() {
        String message = MemoryPinning.refusal(12345, "EPERM", MemoryPinning.LIMIT_UNKNOWN, 0);
        assertTrue(message.startsWith("cannot pin 12345 bytes in RAM: mlock failed (EPERM): the locked-memory limit"
                + " RLIMIT_MEMLOCK (ulimit -l) could not be read; raise it"), message);
    }

    private static long pages(long from, long to, long page) {
        long first = from / page;
        long last = (to + page - 1) / page;
        return last - first;
    }

    /** VmLck of this process, in KiB. */
    static long lockedKib() throws IOException {
        for (String line : Files.readAllLines(STATUS)) {
            if (line.startsWith("VmLck:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no VmLck in " + STATUS);
    }
}

package io.extsock.rdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The C library calls around rdma-core, on the machine's own C library. */
class LibcTest {

    @Test
    void anEventfdIsReadableWhenSignalledAndNotOnceDrained() throws Exception {
        int fd = Libc.eventfd();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollfd = arena.allocate(RdmaStructs.POLLFD.layout());
            pollfd.set(NativeCalls.C_INT, RdmaStructs.POLLFD.offset("fd"), fd);
            pollfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, RdmaStructs.POLLFD.offset("events"), RdmaConstants.POLLIN);
            assertEquals(0, Libc.poll(pollfd, 1, 0));
            Libc.signal(fd);
            Libc.signal(fd);
            assertEquals(1, Libc.poll(pollfd, 1, 0));
            assertEquals(RdmaConstants.POLLIN,
                    pollfd.get(java.lang.foreign.ValueLayout.JAVA_SHORT, RdmaStructs.POLLFD.offset("revents")));
            assertEquals(2, Libc.drain(fd));
            assertEquals(0, Libc.drain(fd));
            assertEquals(0, Libc.poll(pollfd, 1, 0));
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void aFailedCallNamesItselfAndErrno() {
        java.io.IOException closed = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> Libc.close(-1));
        assertEquals("close(-1) failed: " + Libc.strerror(9) + " (errno 9)", closed.getMessage());
    }

    @Test
    void theMemlockLimitIsTheOneTheKernelReportsForThisProcess() throws Exception {
        String line = Files.readAllLines(Path.of("/proc/self/limits")).stream()
                .filter(l -> l.startsWith("Max locked memory")).findFirst().orElseThrow();
        String soft = line.substring("Max locked memory".length()).trim().split("\\s+")[0];
        long expected = soft.equals("unlimited") ? Libc.RLIM_INFINITY : Long.parseLong(soft);
        assertEquals(expected, Libc.memlockLimit());
    }
}

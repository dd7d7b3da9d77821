package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file behind a file region: reads at the region's offsets, a closed region's reads refused,
 * and interrupts of the reading thread, which close a {@code FileChannel}: the same file is
 * reopened and every read still returns the right bytes; a file renamed into its place is not.
 */
class FileRegionSourceTest {

    private static final int FILE_SIZE = 4 << 20;
    private static final int BLOCK = 64 * 1024;

    @TempDir
    Path directory;

    @Test
    @DisplayName("Reads return the region's bytes at its offset; after close a read names the deregistration")
    void readsAndClose() throws Exception {
        byte[] content = randomBytes(10_000, 1);
        Path file = directory.resolve("a.bin");
        Files.write(file, content);
        FileRegionSource source = FileRegionSource.open(file, 100, 9_000);
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK).limit(500);
        source.readInto(block, 1_000);
        assertEquals(500, block.remaining());
        byte[] got = new byte[500];
        block.get(got);
        assertArrayEquals(Arrays.copyOfRange(content, 1_100, 1_600), got);
        source.close();
        SourceUnreadableException closed = assertThrows(SourceUnreadableException.class,
                () -> source.readInto(ByteBuffer.allocateDirect(10), 0));
        assertTrue(closed.getMessage().contains("deregistered") && closed.getMessage().contains(file.toString()),
                closed.getMessage());
    }

    @Test
    @DisplayName("Interrupts landing inside reads: the file is reopened, and every block read is right")
    void interruptsReopenTheSameFile() throws Exception {
        byte[] content = randomBytes(FILE_SIZE, 2);
        Path file = directory.resolve("b.bin");
        Files.write(file, content);
        FileRegionSource source = FileRegionSource.open(file, 0, FILE_SIZE);
        long deadline = System.nanoTime() + 20_000_000_000L;
        Failure failure = hammer(source, content, () -> source.reopens() >= 3 || System.nanoTime() > deadline);
        if (failure.error != null) {
            throw new AssertionError("a read under interrupts failed", failure.error);
        }
        assertTrue(source.reopens() >= 1, "no interrupt landed inside a read in 20 s: " + source.reopens());
        source.close();
    }

    @Test
    @DisplayName("A file renamed into the region's path is not reopened after an interrupt: the read names it")
    void replacedFileIsNotReopened() throws Exception {
        byte[] content = randomBytes(FILE_SIZE, 3);
        Path file = directory.resolve("c.bin");
        Files.write(file, content);
        FileRegionSource source = FileRegionSource.open(file, 0, FILE_SIZE);
        Path other = directory.resolve("other.bin");
        Files.write(other, randomBytes(FILE_SIZE, 4));
        Files.move(other, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        long deadline = System.nanoTime() + 20_000_000_000L;
        Failure failure = hammer(source, content, () -> System.nanoTime() > deadline);
        assertNotNull(failure.error, "no interrupt landed inside a read in 20 s");
        assertTrue(failure.error instanceof SourceUnreadableException, failure.error.toString());
        assertTrue(failure.error.getMessage().contains("no longer the file registered"), failure.error.getMessage());
        assertEquals(0, source.reopens());
        source.close();
    }

    @Test
    @DisplayName("Reads reaching past the end of a file that shrank, under interrupts: each fails naming where it ended, none fills its block")
    void shortReadsUnderInterruptsStillSeeTheEnd() throws Exception {
        Path file = directory.resolve("d.bin");
        Files.write(file, randomBytes(FILE_SIZE, 6));
        FileRegionSource source = FileRegionSource.open(file, 0, FILE_SIZE);
        long end = FILE_SIZE - BLOCK / 3;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(end);  // the last block's first read is short: an interrupt may end it
        }
        long deadline = System.nanoTime() + 20_000_000_000L;
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        Failure result = underInterrupts(() -> source.reopens() >= 5 || System.nanoTime() > deadline, () -> {
            try {
                source.readInto(block.clear(), FILE_SIZE - BLOCK);
                throw new AssertionError("a block reaching past the file's end at " + end + " was filled");
            } catch (SourceUnreadableException expected) {
                if (!expected.getMessage().contains("ended at byte " + end)) {
                    throw expected;
                }
            }
        });
        if (result.error != null) {
            throw new AssertionError("a read past the end under interrupts went wrong", result.error);
        }
        assertTrue(source.reopens() >= 1, "no interrupt landed inside a read in 20 s: " + source.reopens());
        source.close();
    }

    private static final class Failure {
        Throwable error;
    }

    /**
     * Reads blocks (checked against the original content: the old file stays readable through
     * the open channel) while another thread interrupts the reader, until {@code enough} or a
     * failure.
     */
    private static Failure hammer(FileRegionSource source, byte[] content, BooleanSupplier enough)
            throws InterruptedException {
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        byte[] got = new byte[BLOCK];
        Random offsets = new Random(5);
        return underInterrupts(enough, () -> {
            long offset = (long) offsets.nextInt(FILE_SIZE / BLOCK) * BLOCK;
            source.readInto(block.clear(), offset);
            block.get(got);
            if (!Arrays.equals(got, 0, BLOCK, content, (int) offset, (int) offset + BLOCK)) {
                throw new AssertionError("wrong bytes at " + offset);
            }
        });
    }

    /** Runs {@code step} on a thread of its own, interrupted without pause, until {@code enough} or a failure. */
    private static Failure underInterrupts(BooleanSupplier enough, Runnable step) throws InterruptedException {
        Failure result = new Failure();
        AtomicBoolean done = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try {
                while (!enough.getAsBoolean()) {
                    step.run();
                }
            } catch (Throwable e) {
                result.error = e;
            } finally {
                done.set(true);
            }
        });
        reader.start();
        while (!done.get()) {
            reader.interrupt();
            Thread.onSpinWait();
        }
        reader.join();
        return result;
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}

package io.extsock.examples.demo;

import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Copies local regions to the peer's (RDMA Write) or the peer's to local ones (RDMA Read) in
 * chunks, with several chunks in flight so that the connection never waits for a completion.
 * Local and remote regions pair up in order and have the same lengths.
 */
final class RdmaCopy {

    /** Bytes per work request: big enough that per-request costs vanish, small enough to overlap. */
    static final int CHUNK = 16 << 20;
    /** Requests in flight at once. */
    static final int DEPTH = 8;
    /** A connection that completes nothing for this long is stuck. */
    private static final long STALL_SECONDS = 60;

    private RdmaCopy() {
    }

    /** RDMA-Writes {@code local} to {@code remote}; {@code progress} hears the bytes sent so far. */
    static void write(IwarpConnection verbs, List<MemoryRegion> local, List<RemoteBuffer> remote,
                      LongConsumer progress) throws IOException, InterruptedException {
        copy(verbs, true, local, remote, progress);
    }

    /** RDMA-Reads {@code remote} into {@code local}; {@code progress} hears the bytes landed so far. */
    static void read(IwarpConnection verbs, List<MemoryRegion> local, List<RemoteBuffer> remote,
                     LongConsumer progress) throws IOException, InterruptedException {
        copy(verbs, false, local, remote, progress);
    }

    private static void copy(IwarpConnection verbs, boolean write, List<MemoryRegion> local, List<RemoteBuffer> remote,
                             LongConsumer progress) throws IOException, InterruptedException {
        if (local.size() != remote.size()) {
            throw new SocketException("the peer offered " + remote.size() + " regions for " + local.size());
        }
        WriteRequest writeRequest = new WriteRequest();  // reusable: posting copies what it needs
        ReadRequest readRequest = new ReadRequest();
        int region = 0;
        long offset = 0;
        int inFlight = 0;
        long done = 0;
        while (true) {
            while (inFlight < DEPTH && region < local.size()) {
                MemoryRegion here = local.get(region);
                RemoteBuffer there = remote.get(region);
                if (there.length() != here.length()) {
                    throw new SocketException("the peer's region " + region + " is " + there.length() + " bytes, not "
                            + here.length());
                }
                int length = (int) Math.min(CHUNK, here.length() - offset);
                if (write) {
                    verbs.post(writeRequest.gather(here.slice(offset, length)).target(there.slice(offset, length)));
                } else {
                    verbs.post(readRequest.source(there.slice(offset, length)).sink(here.slice(offset, length)));
                }
                inFlight++;
                offset += length;
                if (offset == here.length()) {
                    region++;
                    offset = 0;
                }
            }
            if (inFlight == 0) {
                return;
            }
            WorkCompletion completion = verbs.completions().take(STALL_SECONDS, TimeUnit.SECONDS);
            if (completion == null) {
                throw new SocketException("no RDMA " + (write ? "Write" : "Read") + " completed in " + STALL_SECONDS
                        + " s: the connection is stuck");
            }
            if (!completion.isSuccess()) {
                throw new SocketException("RDMA " + (write ? "Write" : "Read") + " failed: " + completion.status()
                        + (completion.detail() != null ? ": " + completion.detail() : ""));
            }
            inFlight--;
            done += completion.byteLength();
            progress.accept(done);
        }
    }
}

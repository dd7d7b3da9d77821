package io.extsock.testkit.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One direction of a relayed connection, on its own thread: reads what one peer sent, applies
 * the plan, writes it to the other. Everything it decides is recorded for the report.
 */
final class RelayedDirection implements Runnable {

    private final String name;
    private final Socket from;
    private final Socket to;
    private final FaultPlan plan;
    private final FaultRelay relay;
    private final SplittableRandom segmentSizes;
    /** Octets to flip once they come by: absolute offsets, and pattern hits beyond the chunk that found them. */
    private final List<long[]> pending = new ArrayList<>();
    private final int[] patternOccurrences;
    private final boolean[] patternDone;
    private final int longestPattern;
    private byte[] tail = new byte[0];
    private final List<Long> corrupted = new ArrayList<>();
    private final List<String> missed = new ArrayList<>();
    private volatile long relayed;
    private String ending = "running";

    RelayedDirection(String name, Socket from, Socket to, FaultPlan plan, FaultRelay relay) {
        this.name = name;
        this.from = from;
        this.to = to;
        this.plan = plan;
        this.relay = relay;
        this.segmentSizes = new SplittableRandom(plan.seed);
        this.patternOccurrences = new int[plan.corruptions.size()];
        this.patternDone = new boolean[plan.corruptions.size()];
        int longest = 1;
        for (FaultPlan.Corruption c : plan.corruptions) {
            if (c.byPattern()) {
                longest = Math.max(longest, c.pattern().length);
            } else {
                pending.add(new long[] {c.offset(), c.xorMask()});
            }
        }
        this.longestPattern = longest;
    }

    @Override
    public void run() {
        byte[] chunk = new byte[256 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            if (stopsAt(0)) {
                return;
            }
            int n;
            while ((n = in.read(chunk)) > 0) {
                long start = relayed;
                corrupt(chunk, n, start);
                int position = 0;
                while (position < n) {
                    int length = nextSegment(n - position);
                    long stop = nextStop();
                    if (stop > relayed) {
                        length = (int) Math.min(length, stop - relayed);
                    }
                    pause();
                    // Counted before the peer can see them: a report taken once the peer read
                    // these octets (or answered them) counts them. Uncounted if the write fails.
                    relayed += length;
                    try {
                        out.write(chunk, position, length);
                        out.flush();
                    } catch (IOException e) {
                        relayed -= length;
                        throw e;
                    }
                    position += length;
                    if (stopsAt(relayed)) {
                        discardRest(in, chunk);
                        return;
                    }
                }
            }
            end("end of stream, passed on");
            to.shutdownOutput();
        } catch (IOException e) {
            end("failed: " + e.getMessage());
            relay.resetBoth();  // a peer reset or died: the other peer learns it the same way
        } catch (InterruptedException e) {
            end("interrupted");
            Thread.currentThread().interrupt();
        }
    }

    /** Half-close or reset here, if the plan says so; true if this direction is over. */
    private boolean stopsAt(long offset) throws IOException {
        if (plan.resetAt == offset) {
            end("reset at " + offset);
            relay.resetBoth();
            return true;
        }
        if (plan.halfCloseAt == offset) {
            end("half-closed at " + offset);
            relay.faultHappened();
            to.shutdownOutput();
            return true;
        }
        return false;
    }

    private long nextStop() {
        long stop = Long.MAX_VALUE;
        if (plan.resetAt > relayed) {
            stop = plan.resetAt;
        }
        if (plan.halfCloseAt > relayed) {
            stop = Math.min(stop, plan.halfCloseAt);
        }
        return stop;
    }

    /** After a half-close the sender may go on writing: its octets are read and dropped. */
    private void discardRest(InputStream in, byte[] chunk) {
        try {
            while (in.read(chunk) > 0) {
                // dropped: this direction is closed
            }
        } catch (IOException ignored) {
            // the relay or a peer closed
        }
    }

    private int nextSegment(int available) {
        if (plan.maxSegment == 0) {
            return available;
        }
        return Math.min(available, plan.minSegment + segmentSizes.nextInt(plan.maxSegment - plan.minSegment + 1));
    }

    private void pause() throws InterruptedException {
        if (!plan.delayPerSegment.isZero()) {
            Thread.sleep(plan.delayPerSegment.toMillis(), plan.delayPerSegment.toNanosPart() % 1_000_000);
        }
    }

    /** Flips the octets of this chunk ({@code n} octets from stream offset {@code start}) the plan names. */
    private void corrupt(byte[] chunk, int n, long start) {
        findPatterns(chunk, n, start);
        pending.removeIf(target -> {
            if (target[0] >= start && target[0] < start + n) {
                flip(chunk, start, target[0], (int) target[1]);
                return true;
            }
            return false;
        });
    }

    /** Looks for each pattern in the tail of the last chunk plus this one, counting each appearance once. */
    private void findPatterns(byte[] chunk, int n, long start) {
        byte[] seen = Arrays.copyOf(tail, tail.length + n);
        System.arraycopy(chunk, 0, seen, tail.length, n);
        long seenStart = start - tail.length;
        for (int i = 0; i < plan.corruptions.size(); i++) {
            FaultPlan.Corruption c = plan.corruptions.get(i);
            if (!c.byPattern() || patternDone[i]) {
                continue;
            }
            byte[] pattern = c.pattern();
            // Only appearances that end in the new octets: the others were counted last time.
            for (int at = Math.max(0, tail.length - pattern.length + 1); at + pattern.length <= seen.length; at++) {
                if (Arrays.equals(seen, at, at + pattern.length, pattern, 0, pattern.length)
                        && ++patternOccurrences[i] == c.occurrence()) {
                    patternDone[i] = true;
                    long target = seenStart + at + c.distance();
                    if (target < start) {
                        missed.add("octet " + target + " (" + c.distance() + " from the pattern at " + (seenStart + at)
                                + ") had already been relayed");
                    } else {
                        pending.add(new long[] {target, c.xorMask()});
                    }
                    break;
                }
            }
        }
        int keep = Math.min(longestPattern - 1, seen.length);
        tail = Arrays.copyOfRange(seen, seen.length - keep, seen.length);
    }

    private void flip(byte[] chunk, long start, long target, int xorMask) {
        chunk[(int) (target - start)] ^= (byte) xorMask;
        synchronized (this) {
            corrupted.add(target);
        }
    }

    private synchronized void end(String how) {
        if ("running".equals(ending)) {
            ending = how;
        }
    }

    synchronized FaultReport report() {
        return new FaultReport(relayed, corrupted, missed, name + ": " + ending);
    }
}

package io.extsock.core.verbs;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.IwarpSettings;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WorkRequest;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The verbs of one queue pair: the API's {@link IwarpConnection}, the application's view of one
 * IWARP_MODE connection. Turns its reusable request objects into queue entries, after the local
 * checks (the slices name valid regions of this connection, with the rights they need, within
 * bounds). A request that fails them is not sent: it completes
 * with LOCAL_PROTECTION_ERROR, in its turn, and the connection carries on.
 */
public final class QueuePairVerbs implements IwarpConnection {

    private final QueuePair queuePair;
    private final InlineWait waiting;
    private final MemoryRegistry registry;
    private final LocalAccessCheck localAccess;
    private final CompletionQueue completions;
    private final WorkCompleter toCompletionQueue;
    private final CompletionRing ring;
    /** Requests posted to report to the completion queue; with ring.consumed(), its occupancy. */
    private final java.util.concurrent.atomic.AtomicLong postedToQueue = new java.util.concurrent.atomic.AtomicLong();
    private final IwarpSettings settings;
    private final byte[] peerPrivateData;
    private volatile boolean streamsOwnSendsAndReceives;

    /** @param waiting the engine's wait, which the blocking calls (futures, completion queue) use */
    public QueuePairVerbs(QueuePair queuePair, InlineWait waiting, MemoryRegistry registry, CompletionRing ring,
                               IwarpSettings settings, byte[] peerPrivateData) {
        this.queuePair = queuePair;
        this.waiting = waiting;
        this.registry = registry;
        this.localAccess = new LocalAccessCheck(registry);
        this.ring = ring;
        this.completions = new InlineCompletionQueue(ring, waiting);
        this.toCompletionQueue = completion -> {
            if (!ring.add(completion)) {
                throw new IllegalStateException("completion queue overflow: the engine admitted more requests"
                        + " than the queue holds");
            }
        };
        this.settings = settings;
        this.peerPrivateData = peerPrivateData.clone();
    }

    /** While the socket's streams run over Sends, the application may not post its own. */
    public void setStreamsOwnSendsAndReceives(boolean owned) {
        this.streamsOwnSendsAndReceives = owned;
    }

    @Override
    public MemoryRegion register(ByteBuffer buffer, Set<Access> access) throws IOException {
        return register(buffer, access, false);
    }

    @Override
    public MemoryRegion registerPinned(ByteBuffer buffer, Set<Access> access) throws IOException {
        return register(buffer, access, true);
    }

    @Override
    public MemoryRegion registerFile(Path file, long position, long length, Set<Access> access)
            throws IOException {
        requireConnected();
        waiting.progressWhileIdle();
        try {
            return registry.registerFile(file, position, length, access);
        } catch (IOException e) {
            throw endedOr(e);  // the file, or too many regions, unless the connection ended
        }
    }

    /**
     * The connection may end between the check and the registration (its end closes the
     * registry): that is the same news as the check's, so it comes as the same checked
     * exception, naming how the connection ended.
     */
    private MemoryRegion register(ByteBuffer buffer, Set<Access> access, boolean pin) throws IOException {
        requireConnected();
        waiting.progressWhileIdle();  // the peer may reach this memory while nobody waits
        try {
            return registry.register(buffer, access, pin);
        } catch (IOException e) {
            throw endedOr(e);  // pinning refused, or too many regions, unless the connection ended
        }
    }

    /** A registration's failure as it is, or, if the connection ended meanwhile, as that end. */
    private IOException endedOr(IOException failure) {
        if (!registry.isClosed()) {
            return failure;
        }
        return ended(failure);
    }

    /**
     * The connection's end as the API reports it: a {@link SocketException}, as a closed {@code
     * java.net.Socket} throws, saying how the connection ended, with {@code cause} (or none); the
     * engine's own {@link QueuePairClosedException} stays inside.
     */
    private SocketException ended(Throwable cause) {
        SocketException ended = new SocketException(QueuePairClosedException.describe(queuePair.failure()));
        if (cause != null) {
            ended.initCause(cause);
        }
        return ended;
    }

    /**
     * Posts a request that reports to the completion queue. Each such request holds a slot of
     * the queue until its completion is polled, so that no completion ever finds it full.
     *
     * @throws IllegalStateException when the queue's capacity is taken: poll completions first
     */
    @Override
    public void post(WorkRequest request) throws IOException {
        reserveCompletions(1);
        boolean posted = false;
        try {
            post(request, toCompletionQueue);
            posted = true;
        } finally {
            if (!posted) {
                postedToQueue.decrementAndGet();
            }
        }
    }

    /**
     * Posts the list whole or not at all: every request is checked first, then, under the queue
     * pair's lock (so that no other thread's post comes between the check for room and the last
     * request), the connection and the room for all of them; then each is queued, and the list
     * is transmitted once, in one gathering write as far as it holds them.
     */
    @Override
    public void post(List<? extends WorkRequest> requests) throws IOException {
        int count = Objects.requireNonNull(requests, "requests").size();
        int receives = 0;
        for (int i = 0; i < count; i++) {
            WorkRequest request = requests.get(i);
            try {
                receives += check(request) ? 1 : 0;
            } catch (IllegalArgumentException refused) {
                throw new IllegalArgumentException("request " + i + " of the list: " + refused.getMessage(), refused);
            }
        }
        if (count == 0) {
            return;
        }
        reserveCompletions(count);
        waiting.progressWhileIdle();  // their completions may be polled rather than waited for
        int[] queued = {0};  // how far the posting got, should the list change under it
        try {
            queuePair.postTogether(count - receives, receives, () -> {
                for (; queued[0] < count; queued[0]++) {
                    queue(requests.get(queued[0]), toCompletionQueue, false);
                }
            });
        } catch (QueuePairClosedException endedMeanwhile) {
            throw ended(endedMeanwhile.getCause());
        } finally {
            // The slots of those not queued: none, unless another thread changed the list meanwhile.
            postedToQueue.addAndGet(queued[0] - count);
            if (queued[0] > 0) {
                queuePair.transmitPosted();
            }
        }
    }

    /** Takes {@code count} slots of the completion queue for requests about to be posted, or none. */
    private void reserveCompletions(int count) {
        long occupied = postedToQueue.addAndGet(count) - ring.consumed();
        if (occupied > ring.capacity()) {
            postedToQueue.addAndGet(-count);
            throw new IllegalStateException("the completion queue is full: " + ring.capacity()
                    + " requests posted and not yet polled"
                    + (count > 1 ? ", no room for a list of " + count : "")
                    + "; poll completions before posting more");
        }
    }

    @Override
    public CompletableFuture<WorkCompletion> submit(WorkRequest request) {
        CompletableFuture<WorkCompletion> future = new InlineFuture<>(waiting);
        try {
            post(request, completion -> future.complete(WorkCompletion.of(completion)));
        } catch (IOException | RuntimeException e) {
            future.completeExceptionally(e);
        }
        return future;
    }

    @Override
    public CompletionQueue completions() {
        return completions;
    }

    @Override
    public IwarpSettings settings() {
        return settings;
    }

    @Override
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    @Override
    public IwarpStatistics statistics() {
        return queuePair.counters().snapshot();
    }

    @Override
    public String toString() {
        ConnectionCounters counters = queuePair.counters();
        String failure = queuePair.failure();
        String state = counters.isClosed() ? "CLOSED (" + failure + ")"
                : failure != null ? "TERMINATING (" + failure + ")" : "CONNECTED";
        return "IwarpConnection[peer=" + counters.peer() + ", local=" + counters.local() + ", state=" + state
                + ", mpa=" + settings.mpaRevision()
                + ", role=" + (settings.initiator() ? "initiator" : "responder") + ", crc=" + onOff(settings.crc())
                + ", markers=" + onOff(settings.markersSent()) + "/" + onOff(settings.markersReceived())
                + ", ird=" + settings.ird() + ", ord=" + settings.ord() + ", maxFpdu=" + settings.maxFpduSize() + "]";
    }

    private static String onOff(boolean on) {
        return on ? "on" : "off";
    }

    QueuePair queuePair() {
        return queuePair;
    }

    /** Checks one request and queues it for transmission at once. */
    private void post(WorkRequest request, WorkCompleter completer) throws IOException {
        requireConnected();  // before the slice checks: an ended connection's regions are gone too
        check(request);
        waiting.progressWhileIdle();  // its completion may be polled rather than waited for
        try {
            queue(request, completer, true);
        } catch (QueuePairClosedException endedMeanwhile) {
            throw ended(endedMeanwhile.getCause());
        }
    }

    /**
     * What refuses a request before an entry is taken (so that a refused one leaves nothing
     * behind): its shape, and for a Send or Receive the streams' ownership of them.
     *
     * @return whether it is a Receive
     */
    private boolean check(WorkRequest request) {
        boolean receive = RequestShape.check(request);
        if (receive || request instanceof SendRequest) {
            requireSendsAndReceivesAvailable();
        }
        return receive;
    }

    /** Queues a checked request; with {@code transmitNow} false it waits for the list's transmit. */
    private void queue(WorkRequest request, WorkCompleter completer, boolean transmitNow) throws IOException {
        if (request instanceof SendRequest send) {
            postSend(send, completer, transmitNow);
        } else if (request instanceof ReceiveRequest receive) {
            postReceive(receive, completer);
        } else if (request instanceof WriteRequest write) {
            postWrite(write, completer, transmitNow);
        } else {
            postRead((ReadRequest) request, completer, transmitNow);
        }
    }

    private void postSend(SendRequest request, WorkCompleter completer, boolean transmitNow) throws IOException {
        SendWork work = queuePair.newSendWork();
        work.opcode = WorkOpcode.SEND;
        work.tag = request.tag();
        work.completer = completer;
        work.solicited = request.isSolicited();
        work.invalidate = request.isInvalidate();
        work.invalidateStag = request.invalidateStag();
        for (int i = 0; i < request.sliceCount(); i++) {
            if (!gather(work, i, request.slice(i))) {
                break;
            }
        }
        queuePair.postSend(work, transmitNow);
    }

    private void postWrite(WriteRequest request, WorkCompleter completer, boolean transmitNow) throws IOException {
        SendWork work = queuePair.newSendWork();
        work.opcode = WorkOpcode.RDMA_WRITE;
        work.tag = request.tag();
        work.completer = completer;
        work.remoteStag = request.target().stag();
        work.remoteOffset = request.target().offset();
        for (int i = 0; i < request.sliceCount(); i++) {
            if (!gather(work, i, request.slice(i))) {
                break;
            }
        }
        queuePair.postSend(work, transmitNow);
    }

    private void postRead(ReadRequest request, WorkCompleter completer, boolean transmitNow) throws IOException {
        RegionSlice sink = request.sink();
        SendWork work = queuePair.newSendWork();
        work.opcode = WorkOpcode.RDMA_READ;
        work.tag = request.tag();
        work.completer = completer;
        work.remoteStag = request.source().stag();
        work.remoteOffset = request.source().offset();
        work.length = sink.length();
        String refused = localAccess.check(sink, Access.LOCAL_WRITE);
        if (refused != null) {
            work.finish(CompletionStatus.LOCAL_PROTECTION_ERROR, "RDMA Read sink: " + refused,
                    CompletionCause.LOCAL_CHECK);
        } else {
            work.sinkRegion = (RegisteredRegion) sink.region();
            work.sinkOffset = sink.offset();
        }
        queuePair.postSend(work, transmitNow);
    }

    private void postReceive(ReceiveRequest request, WorkCompleter completer) throws IOException {
        ReceiveWork work = queuePair.newReceiveWork();
        work.tag = request.tag();
        work.completer = completer;
        for (int i = 0; i < request.sliceCount(); i++) {
            RegionSlice slice = request.slice(i);
            String refused = localAccess.check(slice, Access.LOCAL_WRITE);
            if (refused != null) {
                work.clear();
                queuePair.counters().completed(CompletionStatus.LOCAL_PROTECTION_ERROR);
                // Any thread posts, so this rare failure gets a record of its own.
                completer.complete(new CompletionRecord().set(request.tag(), WorkOpcode.RECEIVE,
                        CompletionStatus.LOCAL_PROTECTION_ERROR, 0, false, 0, "receive buffer " + i + ": " + refused,
                        CompletionCause.LOCAL_CHECK));
                return;
            }
            work.addPiece((RegisteredRegion) slice.region(), slice.offset(), slice.length());
        }
        queuePair.postReceive(work);
    }

    /**
     * Adds gather slice {@code index} of a Send or Write to its entry; on a failed check, marks
     * the entry failed and returns false. (Called slice by slice rather than given the request's
     * slices as a function: a method reference bound to the request would be allocated per post.)
     */
    private boolean gather(SendWork work, int index, RegionSlice slice) {
        String refused = localAccess.check(slice, null);
        if (refused != null) {
            work.finish(CompletionStatus.LOCAL_PROTECTION_ERROR, "gather slice " + index + ": " + refused,
                    CompletionCause.LOCAL_CHECK);
            return false;
        }
        work.addPiece((RegisteredRegion) slice.region(), slice.offset(), slice.length());
        return true;
    }

    @Override
    public boolean await(BooleanSupplier condition, long timeout, TimeUnit unit)
            throws IOException, InterruptedException {
        Objects.requireNonNull(condition, "condition");
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        // At least a nanosecond: the engine's wait takes 0 for no limit.
        if (waiting.await(condition, Math.max(1, unit.toNanos(timeout)), true)) {
            return true;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (condition.getAsBoolean()) {
            return true;
        }
        requireConnected();  // the wait ends early only when the connection ended
        return false;
    }

    private void requireSendsAndReceivesAvailable() {
        if (streamsOwnSendsAndReceives) {
            throw new IllegalStateException("the socket's streams run over this connection's Sends and Receives;"
                    + " set IwarpOptions.STREAMS to false before the switch to post your own");
        }
    }

    private void requireConnected() throws IOException {
        if (!queuePair.isConnected()) {
            throw ended(null);
        }
    }
}

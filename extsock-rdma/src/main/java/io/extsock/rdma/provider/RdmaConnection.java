package io.extsock.rdma.provider;

import io.extsock.IwarpOptions;
import io.extsock.rdma.events.CmEvent;
import io.extsock.rdma.events.CompletionEventSource;
import io.extsock.rdma.events.DeviceEventThread;
import io.extsock.rdma.events.EventHandler;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaConstants;
import io.extsock.rdma.ffi.Verbs;
import io.extsock.rdma.verbs.CompletionQueue;
import io.extsock.rdma.verbs.MemoryRegistration;
import io.extsock.rdma.verbs.ProtectionDomain;
import io.extsock.rdma.verbs.QueuePair;
import io.extsock.rdma.verbs.WorkCompletions;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSettings;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RegionSlice;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WorkRequest;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The verbs side of a connection on an RDMA device: registrations in its protection domain,
 * requests posted to its queue pair, completions that the device's event thread polls from its
 * completion queue and hands to {@link #completions()} or to a request's future.
 *
 * <p>What it does not do yet, each failing with a message naming the gap: file regions, heap
 * buffers (a device reaches only memory that stays put), more than one slice per request, Send
 * with Invalidate; a list is posted request by request, not as one chain.
 */
final class RdmaConnection implements IwarpConnection {

    private static final System.Logger LOG = System.getLogger(RdmaConnection.class.getName());
    private static final int POLL_BATCH = 32;

    /** A posted request, until its completion. */
    private record Posted(long tag, WorkOpcode opcode, long length, boolean sendQueue,
                          CompletableFuture<WorkCompletion> future) {
    }

    private final Verbs verbs;
    private final RdmaCm cm;
    private final CmChannel.Identifier identifier;
    private final DeviceEventThread events;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final boolean streams;
    private final Arena arena = Arena.ofShared();
    /** Guards the two reusable native requests while one is filled and posted. */
    private final ReentrantLock posting = new ReentrantLock();
    private final io.extsock.rdma.verbs.SendRequest sendWr;
    private final io.extsock.rdma.verbs.ReceiveRequest recvWr;
    private final WorkCompletions polled;
    private final Object cqWatch;
    private final ConcurrentHashMap<Long, Posted> outstanding = new ConcurrentHashMap<>();
    private final AtomicLong nextWrId = new AtomicLong(1);
    private final AtomicInteger sendsOutstanding = new AtomicInteger();
    private final AtomicInteger receivesOutstanding = new AtomicInteger();
    private final Set<RdmaMemoryRegion> regions = ConcurrentHashMap.newKeySet();
    private final RdmaCompletionQueue completions = new RdmaCompletionQueue();
    private final Statistics statistics = new Statistics();

    private volatile IwarpSettings settings;
    private volatile byte[] peerPrivateData = new byte[0];
    private volatile InetSocketAddress local;
    private volatile InetSocketAddress remote;
    private final String device;
    /** Null while connected; else how it ended. */
    private volatile String ended;
    private volatile boolean closedLocally;
    private final ReentrantLock closing = new ReentrantLock();
    private boolean released;

    RdmaConnection(Verbs verbs, RdmaCm cm, CmChannel.Identifier identifier, DeviceEventThread events,
                   ProtectionDomain pd, CompletionQueue cq, QueuePair qp, boolean streams, String device)
            throws IOException {
        this.verbs = verbs;
        this.cm = cm;
        this.identifier = identifier;
        this.events = events;
        this.pd = pd;
        this.cq = cq;
        this.qp = qp;
        this.streams = streams;
        this.device = device;
        this.sendWr = new io.extsock.rdma.verbs.SendRequest(arena);
        this.recvWr = new io.extsock.rdma.verbs.ReceiveRequest(arena);
        this.polled = new WorkCompletions(POLL_BATCH, arena);
        cq.arm(false);
        this.cqWatch = events.watch(new CompletionEventSource(verbs, cq.channel(), arena), new EventHandler<>() {
            @Override
            public void onEvent(MemorySegment event) {
                onCompletionEvent();
            }

            @Override
            public void onFailure(IOException failure) {
                end("its completion channel failed: " + failure.getMessage());
            }
        });
    }

    /** The connection is up: what it agreed on, as rdma_cm reported it. */
    void established(CmEvent event, boolean initiator, int ird, int ord, InetSocketAddress local,
                     InetSocketAddress remote) {
        this.peerPrivateData = event.privateData().clone();
        this.local = local;
        this.remote = remote;
        // The kernel negotiates MPA; verbs report none of it to user space: revision 2, CRC and no
        // markers are what iWARP drivers negotiate by default, and the FPDU size is the device's own (0).
        this.settings = new IwarpSettings(2, true, false, false, ird, ord, 0, initiator,
                IwarpOptions.Provider.DEVICE, device);
        identifier.inbox().onEnd(this::onCmEnd);
    }

    InetSocketAddress localAddress() {
        return local;
    }

    InetSocketAddress remoteAddress() {
        return remote;
    }

    String deviceName() {
        return device;
    }

    // ---- completions, on the device's event thread ----------------------------------------

    private void onCompletionEvent() {
        try {
            drainCq();
            cq.arm(false);
            drainCq();  // what came between the last poll and the arm raised no event
        } catch (IOException e) {
            end("polling its completion queue failed: " + e.getMessage());
        }
    }

    private void drainCq() throws IOException {
        int taken;
        while ((taken = cq.poll(polled)) > 0) {
            for (int i = 0; i < taken; i++) {
                complete(polled.wrId(i), polled.status(i), polled.byteLength(i), polled.vendorError(i));
            }
        }
    }

    private void complete(long wrId, int wcStatus, int byteLength, int vendorError) {
        Posted posted = outstanding.remove(wrId);
        if (posted == null) {
            return;
        }
        CompletionStatus status = CompletionMapping.status(wcStatus);
        String detail = status == CompletionStatus.SUCCESS ? null
                : verbs.wcStatus(wcStatus) + " (ibv_wc_status " + wcStatus + ", vendor error 0x"
                        + Integer.toHexString(vendorError) + ")";
        deliver(posted, status, byteLength, detail, CompletionMapping.cause(status, closedLocally));
    }

    private void deliver(Posted posted, CompletionStatus status, long byteLength, String detail,
                         CompletionCause cause) {
        (posted.sendQueue() ? sendsOutstanding : receivesOutstanding).decrementAndGet();
        boolean success = status == CompletionStatus.SUCCESS;
        // byte_len is defined for receives and reads; a Send's or a Write's is what was posted.
        long length = !success ? 0
                : posted.opcode() == WorkOpcode.RECEIVE ? byteLength : posted.length();
        statistics.count(posted.opcode(), success, length);
        WorkCompletion completion = new WorkCompletion(posted.tag(), posted.opcode(), status, length, false, 0,
                detail, cause);
        if (posted.future() != null) {
            posted.future().complete(completion);
        } else {
            completions.add(completion);
        }
    }

    private void onCmEnd(CmEvent event) {
        end(event.type() == RdmaConstants.RDMA_CM_EVENT_DEVICE_REMOVAL ? "the device was removed"
                : "the peer disconnected");
    }

    /** The connection ended: new requests are refused; the device flushes the outstanding ones. */
    private void end(String why) {
        if (ended == null) {
            ended = why;
        }
    }

    // ---- memory ---------------------------------------------------------------------------

    @Override
    public MemoryRegion register(ByteBuffer buffer, Set<Access> access) throws IOException {
        requireOpen();
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("a device registers direct or mapped buffers only, not a heap buffer:"
                    + " the garbage collector moves heap memory, and the device reaches it by address");
        }
        if (buffer.isReadOnly() && (access.contains(Access.LOCAL_WRITE) || access.contains(Access.REMOTE_WRITE))) {
            throw new IllegalArgumentException("a read-only buffer cannot be registered with a write right: " + access);
        }
        ByteBuffer whole = buffer.duplicate().clear();
        MemoryRegistration registration = pd.register(MemorySegment.ofBuffer(whole),
                CompletionMapping.accessFlags(access));
        RdmaMemoryRegion region = new RdmaMemoryRegion(buffer, registration, access, regions::remove);
        regions.add(region);
        return region;
    }

    @Override
    public MemoryRegion registerPinned(ByteBuffer buffer, Set<Access> access) throws IOException {
        return register(buffer, access);  // ibv_reg_mr pins every region
    }

    @Override
    public MemoryRegion registerFile(Path file, long position, long length, Set<Access> access) {
        throw new UnsupportedOperationException("file regions are not supported on an RDMA device yet: map the file"
                + " (FileChannel.map) and register the mapping");
    }

    // ---- posting --------------------------------------------------------------------------

    @Override
    public void post(WorkRequest request) throws IOException {
        post(request, null);
    }

    @Override
    public void post(List<? extends WorkRequest> requests) throws IOException {
        for (int i = 0; i < requests.size(); i++) {
            try {
                check(requests.get(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("request " + i + " of the list: " + e.getMessage(), e);
            }
        }
        for (WorkRequest request : requests) {
            post(request, null);
        }
    }

    @Override
    public CompletableFuture<WorkCompletion> submit(WorkRequest request) {
        CompletableFuture<WorkCompletion> future = new CompletableFuture<>();
        try {
            post(request, future);
        } catch (IOException | RuntimeException e) {
            future.completeExceptionally(e);
        }
        return future;
    }

    private void post(WorkRequest request, CompletableFuture<WorkCompletion> future) throws IOException {
        check(request);
        requireOpen();
        boolean sendQueue = !(request instanceof ReceiveRequest);
        AtomicInteger queued = sendQueue ? sendsOutstanding : receivesOutstanding;
        int depth = sendQueue ? SEND_QUEUE_DEPTH : RECEIVE_QUEUE_DEPTH;
        if (queued.incrementAndGet() > depth) {
            queued.decrementAndGet();
            throw new IllegalStateException((sendQueue ? "the send queue" : "the receive queue") + " is full: "
                    + depth + " requests are outstanding");
        }
        long wrId = nextWrId.getAndIncrement();
        outstanding.put(wrId, new Posted(request.tag(), request.opcode(), length(request), sendQueue, future));
        posting.lock();
        try {
            postNative(wrId, request);
        } catch (IOException | RuntimeException e) {
            outstanding.remove(wrId);
            queued.decrementAndGet();
            throw e;
        } finally {
            posting.unlock();
        }
    }

    private void postNative(long wrId, WorkRequest request) throws IOException {
        int signaled = RdmaConstants.IBV_SEND_SIGNALED;
        if (request instanceof SendRequest send) {
            RegionSlice slice = send.slice(0);
            int flags = signaled | (send.isSolicited() ? RdmaConstants.IBV_SEND_SOLICITED : 0);
            qp.post(sendWr.send(wrId, registration(slice), slice.offset(), slice.length(), flags));
        } else if (request instanceof WriteRequest write) {
            RegionSlice slice = write.slice(0);
            RemoteBuffer target = write.target();
            qp.post(sendWr.write(wrId, registration(slice), slice.offset(), slice.length(), target.offset(),
                    target.stag(), signaled));
        } else if (request instanceof ReadRequest read) {
            RegionSlice sink = read.sink();
            RemoteBuffer source = read.source();
            qp.post(sendWr.read(wrId, registration(sink), sink.offset(), (int) source.length(), source.offset(),
                    source.stag(), signaled));
        } else {
            RegionSlice slice = ((ReceiveRequest) request).slice(0);
            qp.post(recvWr.into(wrId, registration(slice), slice.offset(), slice.length()));
        }
    }

    /** Refuses what this provider cannot post, naming why, before anything is posted. */
    private void check(WorkRequest request) {
        if ((request instanceof SendRequest || request instanceof ReceiveRequest) && streams) {
            throw new IllegalStateException("the socket's streams own Sends and Receives: set IWARP_STREAMS false"
                    + " before connect to post your own");
        }
        if (request instanceof SendRequest send) {
            if (send.isInvalidate()) {
                throw new UnsupportedOperationException("Send with Invalidate is not supported on an RDMA device yet");
            }
            oneSlice(send.sliceCount());
            ownRegion(send.slice(0));
        } else if (request instanceof WriteRequest write) {
            oneSlice(write.sliceCount());
            ownRegion(write.slice(0));
            if (write.target() == null) {
                throw new IllegalArgumentException("an RDMA Write needs a target");
            }
            if (write.length() > write.target().length()) {
                throw new IllegalArgumentException("an RDMA Write of " + write.length() + " bytes to a target of "
                        + write.target().length());
            }
        } else if (request instanceof ReadRequest read) {
            if (read.source() == null || read.sink() == null) {
                throw new IllegalArgumentException("an RDMA Read needs a source and a sink");
            }
            ownRegion(read.sink());
            if (read.source().length() > read.sink().length()) {
                throw new IllegalArgumentException("an RDMA Read of " + read.source().length()
                        + " bytes into a sink of " + read.sink().length());
            }
        } else if (request instanceof ReceiveRequest receive) {
            oneSlice(receive.sliceCount());
            ownRegion(receive.slice(0));
        }
    }

    private static void oneSlice(int count) {
        if (count != 1) {
            throw new IllegalArgumentException("a request on an RDMA device takes exactly one slice for now, not "
                    + count);
        }
    }

    private void ownRegion(RegionSlice slice) {
        if (!(slice.region() instanceof RdmaMemoryRegion region) || !regions.contains(region)) {
            throw new IllegalArgumentException("the slice's region is not registered on this connection (or was"
                    + " deregistered): " + slice.region());
        }
    }

    private static MemoryRegistration registration(RegionSlice slice) {
        return ((RdmaMemoryRegion) slice.region()).registration();
    }

    private static long length(WorkRequest request) {
        if (request instanceof SendRequest send) {
            return send.length();
        } else if (request instanceof WriteRequest write) {
            return write.length();
        } else if (request instanceof ReadRequest read) {
            return read.source() == null ? 0 : read.source().length();
        }
        return ((ReceiveRequest) request).length();
    }

    private void requireOpen() throws SocketException {
        String why = ended;
        if (why != null) {
            throw new SocketException("the connection has ended: " + why);
        }
    }

    // ---- waiting --------------------------------------------------------------------------

    @Override
    public boolean await(BooleanSupplier condition, long timeout, TimeUnit unit)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        long parkNanos = 1_000;
        // The device places a peer's Writes without a word to this side: the condition is looked at
        // with a growing pause between looks (at most 1 ms), not a wake-up.
        while (!condition.getAsBoolean()) {
            requireOpen();
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(parkNanos, left));
            parkNanos = Math.min(parkNanos * 2, 1_000_000);
        }
        return true;
    }

    @Override
    public io.extsock.verbs.CompletionQueue completions() {
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
        return statistics.snapshot();
    }

    @Override
    public String toString() {
        String why = ended;
        IwarpSettings agreed = settings;
        return "IwarpConnection[peer=" + address(remote) + ", local=" + address(local) + ", state="
                + (why == null ? "CONNECTED" : (closedLocally ? "CLOSED (" : "TERMINATING (") + why + ")")
                + ", provider=device, device=" + device
                + (agreed == null ? "" : ", role=" + (agreed.initiator() ? "initiator" : "responder") + ", ird="
                        + agreed.ird() + ", ord=" + agreed.ord()) + "]";
    }

    private static String address(InetSocketAddress address) {
        return address == null ? "?" : address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    // ---- close ----------------------------------------------------------------------------

    /**
     * Ends the connection and frees everything it holds on the device: disconnects (the peer
     * sees the end, outstanding requests flush), completes every request still outstanding
     * ({@link CompletionStatus#FLUSHED}, cause CLOSED), then destroys the queue pair, the
     * completion queue, the registrations, the protection domain and the identifier, in that
     * order, after the event thread let go of the completion channel.
     */
    void close() {
        closing.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            closedLocally = true;
            end("closed");
            try {
                cm.disconnect(identifier.id());
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "rdma_disconnect of a connection that was not connected", e);
            }
            events.unwatch(cqWatch);
            try {
                drainCq();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "the last poll of a closing connection failed", e);
            }
            for (Long wrId : List.copyOf(outstanding.keySet())) {
                Posted posted = outstanding.remove(wrId);
                if (posted != null) {
                    deliver(posted, CompletionStatus.FLUSHED, 0, "the connection was closed",
                            CompletionCause.CLOSED);
                }
            }
            qp.close();
            closeQuietly(cq);
            for (RdmaMemoryRegion region : List.copyOf(regions)) {
                region.close();
            }
            closeQuietly(pd);
            identifier.destroy();
            arena.close();
        } finally {
            closing.unlock();
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "freeing " + resource + " failed", e);
        }
    }

    /** What this side's completions say it moved: a device tells user space nothing more. */
    private static final class Statistics {
        private final Map<MessageType, AtomicLong> messagesSent = counters();
        private final Map<MessageType, AtomicLong> messagesReceived = counters();
        private final Map<MessageType, AtomicLong> payloadSent = counters();
        private final Map<MessageType, AtomicLong> payloadReceived = counters();
        private final AtomicLong errors = new AtomicLong();

        private static Map<MessageType, AtomicLong> counters() {
            Map<MessageType, AtomicLong> counters = new EnumMap<>(MessageType.class);
            for (MessageType type : MessageType.values()) {
                counters.put(type, new AtomicLong());
            }
            return counters;
        }

        void count(WorkOpcode opcode, boolean success, long length) {
            if (!success) {
                errors.incrementAndGet();
                return;
            }
            switch (opcode) {
                case SEND -> add(messagesSent, payloadSent, MessageType.SEND, length);
                case RDMA_WRITE -> add(messagesSent, payloadSent, MessageType.RDMA_WRITE, length);
                case RDMA_READ -> {
                    add(messagesSent, payloadSent, MessageType.RDMA_READ_REQUEST, 0);
                    add(messagesReceived, payloadReceived, MessageType.RDMA_READ_RESPONSE, length);
                }
                case RECEIVE -> add(messagesReceived, payloadReceived, MessageType.SEND, length);
            }
        }

        private static void add(Map<MessageType, AtomicLong> messages, Map<MessageType, AtomicLong> payload,
                                MessageType type, long length) {
            messages.get(type).incrementAndGet();
            payload.get(type).addAndGet(length);
        }

        IwarpStatistics snapshot() {
            long sent = payloadSent.values().stream().mapToLong(AtomicLong::get).sum();
            long received = payloadReceived.values().stream().mapToLong(AtomicLong::get).sum();
            return new IwarpStatistics(sent, received, values(messagesSent), values(messagesReceived),
                    values(payloadSent), values(payloadReceived), errors.get(), 0, 0, 0, 0, 0);
        }

        private static Map<MessageType, Long> values(Map<MessageType, AtomicLong> counters) {
            Map<MessageType, Long> values = new EnumMap<>(MessageType.class);
            counters.forEach((type, count) -> values.put(type, count.get()));
            return values;
        }
    }
}

package io.extsock.core.engine;

import io.extsock.IwarpNegotiationException;
import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.stream.IwarpStream;
import io.extsock.core.stream.StreamUnavailable;
import io.extsock.core.verbs.CompletionRing;
import io.extsock.core.verbs.ConnectionCounters;
import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.core.verbs.MemoryRegistry;
import io.extsock.core.verbs.QueuePair;
import io.extsock.core.verbs.WirePipeline;
import io.extsock.internal.InterruptShield;
import io.extsock.internal.IwarpOptionValues;
import io.extsock.spi.IwarpAcceptor;
import io.extsock.spi.IwarpProvider;
import io.extsock.spi.IwarpSession;
import io.extsock.spi.Readiness;
import io.extsock.spi.NotAnIwarpPeerException;
import io.extsock.spi.SocketTransport;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSettings;
import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;

/**
 * extsock's software iWARP engine as a provider: negotiates MPA on the switching thread, then
 * hands the connection to a progress thread of the shared engine.
 */
public final class SoftwareIwarpProvider implements IwarpProvider {

    private static final System.Logger LOG = System.getLogger(SoftwareIwarpProvider.class.getName());

    private final DirectBufferPool memory;

    /** The provider {@link java.util.ServiceLoader} finds: connections use the JVM's shared pool. */
    public SoftwareIwarpProvider() {
        this(DirectBufferPool.shared());
    }

    /** Connections take their direct memory from {@code memory} (tests: a pool of their own, a budget of their own). */
    public SoftwareIwarpProvider(DirectBufferPool memory) {
        this.memory = memory;
    }

    @Override
    public String name() {
        return "extsock software iWARP (MPA/DDP/RDMAP over TCP)";
    }

    @Override
    public IwarpSession attach(SocketChannel channel, boolean initiator, Map<SocketOption<?>, Object> options)
            throws IOException {
        long started = System.nanoTime();
        String peer = address(channel, true);
        String local = address(channel, false);
        String role = initiator ? "initiator" : "responder";
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "iWARP connection to " + peer + " negotiating (MPA " + role + ", local "
                    + local + ")");
        }
        // What the switch changes on the channel, for a responder that goes on as plain TCP.
        boolean noDelay = false;
        int soTimeout = 0;
        boolean blocking = channel.isBlocking();
        // A platform thread waits in a Selector of its own, which the connection keeps for its
        // application's waits: no blocking mode to switch at every timed read (four fcntl calls
        // each), and no Selector to make later. A virtual thread keeps to the blocking channel,
        // on which it parks.
        Selector waitSelector = null;
        try {
            noDelay = channel.getOption(StandardSocketOptions.TCP_NODELAY);
            soTimeout = channel.socket().getSoTimeout();
            if (!InterruptShield.currentIsVirtual()) {
                channel.configureBlocking(false);
                waitSelector = SpareSelectors.watching(channel);
            }
            return switchToIwarp(channel, waitSelector, initiator, ConnectionSettings.from(options),
                    new ConnectionCounters(peer, local), started, memory);
        } catch (NotAnIwarpPeerException plainPeer) {
            reportFellBack(peer, local, initiator, plainPeer, started);
            giveBack(waitSelector);
            handBackAsPlainTcp(channel, initiator, blocking, noDelay, soTimeout, plainPeer);
            throw plainPeer;
        } catch (IOException | RuntimeException | Error e) {
            reportFailed(peer, local, initiator, e, started);
            giveBack(waitSelector);
            try {
                channel.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    /** Gives back the handshake's Selector, which deregisters the channel, after a switch that failed. */
    private static void giveBack(Selector waitSelector) {
        if (waitSelector != null) {
            SpareSelectors.giveBack(waitSelector);
        }
    }

    @Override
    public IwarpAcceptor acceptAhead(ServerSocketChannel listener, Map<SocketOption<?>, Object> options, int backlog)
            throws IOException {
        return NegotiatingAcceptor.start(listener, ConnectionSettings.from(options), backlog, memory);
    }

    /** Logs and records (JFR) a switch that found a plain TCP peer and goes on as plain TCP. */
    static void reportFellBack(String peer, String local, boolean initiator, NotAnIwarpPeerException plainPeer,
                               long started) {
        IwarpNegotiationException why = plainPeer.negotiationFailure();
        long duration = System.nanoTime() - started;
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "connection to " + peer + " goes on as plain TCP (FALLBACK): not an"
                    + " iWARP peer (" + why.reason() + ") after " + duration / 1_000_000 + " ms: "
                    + why.getMessage());
        }
        ExtsockEvents.fellBack(peer, local, initiator, why.reason().name(), why.getMessage(),
                plainPeer.receivedOctets().length, duration);
    }

    /** Logs and records (JFR) a failed negotiation, whose connection is closed. */
    static void reportFailed(String peer, String local, boolean initiator, Throwable e, long started) {
        long duration = System.nanoTime() - started;
        String reason = e instanceof IwarpNegotiationException failure ? failure.reason().name()
                : e.getClass().getName();
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "iWARP connection to " + peer + " closed: negotiation failed ("
                    + reason + ") after " + duration / 1_000_000 + " ms: " + e.getMessage());
        }
        ExtsockEvents.negotiationFailed(peer, local, initiator, reason, e.getMessage(), duration);
    }

    /**
     * Leaves the channel as {@link io.extsock.spi.IwarpProvider#attach} promises after a fallback:
     * a responder's open and as it was handed over (a socket's blocking, a selector's channel
     * not), an initiator's (whose peer read our MPA Request) closed.
     */
    private static void handBackAsPlainTcp(SocketChannel channel, boolean initiator, boolean blocking,
                                           boolean noDelay, int soTimeout, NotAnIwarpPeerException plainPeer) {
        try {
            if (initiator) {
                channel.close();
            } else {
                channel.configureBlocking(blocking);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
                channel.socket().setSoTimeout(soTimeout);
            }
        } catch (IOException e) {
            plainPeer.addSuppressed(e);  // the peer may have gone: the plain stream will say so
        }
    }

    /** The channel's remote or local address, for events and logs ("unknown" if it has none). */
    static String address(SocketChannel channel, boolean remote) {
        try {
            return ExtsockEvents.address(remote ? channel.getRemoteAddress() : channel.getLocalAddress());
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static IwarpSession switchToIwarp(SocketChannel channel, Selector waitSelector, boolean initiator,
                                              ConnectionSettings settings, ConnectionCounters counters, long started,
                                              DirectBufferPool memory) throws IOException {
        // FPDUs go out whole and the engine batches its own writes; Nagle would only hold back
        // the small messages (credits, Read Requests, Terminates) a peer waits for. siw does the same.
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ExtsockHello hello = hello(settings);
        var preferences = settings.mpaPreferences(hello);
        int streamBeforeFrame = StreamBeforeFrame.maxOctets(channel, settings.earlierStream());
        MpaHandshake.Outcome outcome = initiator
                ? MpaHandshake.initiate(channel, waitSelector, preferences, settings.mpaTimeoutMillis(),
                        streamBeforeFrame, settings.fallbackWaitMillis())
                : MpaHandshake.respond(channel, waitSelector, preferences, settings.mpaTimeoutMillis(),
                        streamBeforeFrame, settings.fallbackWaitMillis());
        return negotiated(channel, waitSelector, initiator, settings, counters, started, outcome, hello, memory);
    }

    /** What this side says of itself in its MPA private data: its stream's buffers, if it runs streams. */
    static ExtsockHello hello(ConnectionSettings settings) {
        return settings.streams()
                ? new ExtsockHello(IwarpStream.RECEIVE_BUFFERS, IwarpStream.BUFFER_SIZE) : ExtsockHello.NONE;
    }

    /**
     * After MPA agreed: the engine takes the connection (its queue pair, stream and progress).
     * Also the end of a negotiation ahead of accept ({@link NegotiatingAcceptor}).
     */
    static IwarpSession negotiated(SocketChannel channel, Selector waitSelector, boolean initiator,
                                   ConnectionSettings settings, ConnectionCounters counters, long started,
                                   MpaHandshake.Outcome outcome, ExtsockHello hello, DirectBufferPool memory)
            throws IOException {
        MpaAgreement agreement = outcome.agreement();
        byte[] peerData = agreement.peerPrivateData().toByteArray();
        ExtsockHello peerHello = ExtsockHello.readFrom(peerData);

        ChannelDriver connection = new ChannelDriver(channel, waitSelector, ProgressEngine.instance().assign(), memory,
                new InlineSpin(settings.spinMicros() * 1_000L));
        try {
            return start(channel, initiator, settings, counters, started, outcome, hello, peerHello, connection);
        } catch (IOException | RuntimeException | Error e) {
            connection.close();  // its memory back to the pool: the session never reached the application
            throw e;
        }
    }

    private static IwarpSession start(SocketChannel channel, boolean initiator, ConnectionSettings settings,
                                      ConnectionCounters counters, long started, MpaHandshake.Outcome outcome,
                                      ExtsockHello hello, ExtsockHello peerHello, ChannelDriver connection)
            throws IOException {
        MpaAgreement agreement = outcome.agreement();
        byte[] peerData = agreement.peerPrivateData().toByteArray();
        MemoryRegistry registry = new MemoryRegistry();
        CompletionRing ring = new CompletionRing(QueuePair.SEND_QUEUE_DEPTH + QueuePair.RECEIVE_QUEUE_DEPTH);
        int maxFpduSize = settings.maxFpduSize() != IwarpOptionValues.PATH_FPDU_SIZE
                ? settings.maxFpduSize() : PathFpduSize.of(channel);
        ByteBuffer fpduHold = agreement.crc() ? connection.memory().take() : ByteBuffer.allocate(0);
        QueuePair queuePair = new QueuePair(agreement, pipeline(agreement, maxFpduSize, fpduHold), registry, connection,
                connection, counters);
        connection.attach(queuePair);

        IwarpSettings negotiated = new IwarpSettings(agreement.revision(), agreement.crc(), agreement.sendMarkers(),
                agreement.receiveMarkers(), agreement.ird(), agreement.ord(), maxFpduSize, initiator);
        QueuePairVerbs verbs = new QueuePairVerbs(queuePair, connection, registry, ring, negotiated,
                ExtsockHello.applicationData(peerData));

        boolean streams = hello.streamsOn() && peerHello.streamsOn();
        verbs.setStreamsOwnSendsAndReceives(streams);
        SocketTransport stream;
        IwarpStream readableStream = null;
        if (streams) {
            IwarpStream iwarpStream = IwarpStream.start(queuePair, connection, peerHello.streamReceiveBuffers(),
                    peerHello.streamBufferSize(), outcome.streamBytes(), connection.memory(), connection::close);
            connection.onEnd(iwarpStream::connectionEnded);
            stream = iwarpStream;
            readableStream = iwarpStream;
        } else {
            stream = new StreamUnavailable(streamUnavailableReason(settings, peerHello), outcome.streamBytes(),
                    channel, connection::close);
        }
        settings.setup().prepare(verbs);  // before the peer's first byte is processed
        long duration = System.nanoTime() - started;
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, "iWARP connection to " + counters.peer() + " connected in IWARP_MODE in "
                    + ReadableDuration.of(duration) + ": " + verbs);
        }
        ExtsockEvents.connected(counters.peer(), counters.local(), agreement, maxFpduSize, duration);
        StatisticsEvents.opened(counters);
        try {
            connection.start(outcome.readAhead());
        } catch (IOException | RuntimeException e) {
            StatisticsEvents.closed(counters);  // never started: it leaves the periodic set at once
            counters.markClosed();
            throw e;
        }
        return new Session(stream, verbs, connection,
                new ConnectionReadiness(readableStream, verbs.completions(), connection));
    }

    /**
     * The codecs of one connection, as its agreement says (RFC 5044 section 4: CRC and markers
     * each way; the FPDU size limits the ULPDU): the writer over an MPA framer for the transmit
     * side, the reader over an MPA deframer for the receive side. The queue pair gets them ready
     * made; it assembles no codec itself.
     */
    public static WirePipeline pipeline(MpaAgreement agreement, int maxFpduSize) {
        return pipeline(agreement, maxFpduSize, ByteBuffer.allocate(0));
    }

    /**
     * As above, with the buffer where, with CRCs, each FPDU waits for its CRC before anything of
     * it is believed (a direct block of the connection's memory: the socket reads into it).
     */
    public static WirePipeline pipeline(MpaAgreement agreement, int maxFpduSize, ByteBuffer fpduHold) {
        FpduFramer framer = new FpduFramer(agreement.crc(), agreement.sendMarkers());
        MessageWriter writer = new MessageWriter(framer,
                FpduFramer.maxUlpduLength(maxFpduSize, agreement.sendMarkers()));
        FpduDeframer deframer = new FpduDeframer(agreement.crc(), agreement.receiveMarkers());
        return new WirePipeline(writer, sink -> new SegmentReader(deframer, sink, fpduHold));
    }

    private static String streamUnavailableReason(ConnectionSettings settings, ExtsockHello peerHello) {
        if (!settings.streams()) {
            return "this socket's stream is off in IWARP_MODE (IwarpOptions.STREAMS is false): use its iwarp()"
                    + " Sends and Receives";
        }
        if (peerHello == ExtsockHello.NONE) {
            return "the peer is not extsock, so the socket's stream cannot run over iWARP: use iwarp()"
                    + " Sends and Receives (IwarpOptions.STREAMS=false)";
        }
        return "the peer turned its stream off in IWARP_MODE (IwarpOptions.STREAMS is false there): use iwarp()"
                + " Sends and Receives";
    }

    private record Session(SocketTransport stream, IwarpConnection connection, ChannelDriver driver,
                           Readiness readiness) implements IwarpSession {

        @Override
        public void spinMicros(int micros) {
            driver.spinLongest(micros * 1_000L);
        }
    }
}

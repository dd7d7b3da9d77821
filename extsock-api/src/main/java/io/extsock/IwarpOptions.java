package io.extsock;

import io.extsock.internal.IwarpSocketOption;
import io.extsock.verbs.IwarpSetup;
import java.net.SocketOption;
import java.util.Locale;
import java.util.Set;

/**
 * Socket options that switch a connection to iWARP and tune it. Set them with {@link
 * java.net.Socket#setOption} on an {@link ExtendedSocket} (one connection) or on an {@link
 * ExtendedServerSocket} (every accepted connection). All but IWARP_MODE and {@link
 * #SPIN_MICROS} must be set before the switch; they shape the MPA negotiation (RFC 5044, RFC
 * 6581). {@link #FALLBACK} and {@link #FALLBACK_WAIT} decide what happens when the peer is not an
 * iWARP peer at all. SPIN_MICROS is this end's own: how its waiting threads wait, at any time.
 */
public final class IwarpOptions {

    /**
     * Switches the connection to the iWARP engine (MPA negotiation, then RDMAP over TCP).
     * The stream keeps working over it; the extended API ({@link ExtendedSocket#iwarp()})
     * becomes available. False by default: the socket is then a plain TCP passthrough.
     *
     * <p>On a connected socket the switch happens at once: the side that connected is the MPA
     * initiator, the side that accepted the responder, and both must switch at a point their
     * protocol agrees on. On an unconnected socket it happens right after connect; on an
     * ExtendedServerSocket, for every accepted connection.
     *
     * <p>Bytes the peer wrote before its switch and this side had not read stay readable first,
     * up to what TCP could have held for a reader that read nothing; more fails the switch. A
     * connection switched at connect or accept carried no bytes before: there the peer's first
     * byte must start its MPA frame, and anything else (a wrong MPA key, a peer speaking another
     * protocol) fails the switch at once (RFC 5044 section 7.1.1).
     */
    public static final SocketOption<Boolean> IWARP_MODE =
            new IwarpSocketOption<>("IWARP_MODE", Boolean.class);

    /** Ask for MPA CRC32c on every FPDU; CRC is used when either side asks. Default true. */
    public static final SocketOption<Boolean> CRC = new IwarpSocketOption<>("IWARP_CRC", Boolean.class);

    /**
     * Require MPA markers on what this side receives (RFC 5044 section 7.1); the peer then
     * inserts them. Default false.
     */
    public static final SocketOption<Boolean> MARKERS = new IwarpSocketOption<>("IWARP_MARKERS", Boolean.class);

    /** Inbound RDMA Read queue depth offered to the peer (RFC 6581 IRD). Default 16. */
    public static final SocketOption<Integer> IRD = new IwarpSocketOption<>("IWARP_IRD", Integer.class);

    /** Outbound RDMA Reads this side may have outstanding (RFC 6581 ORD). Default 16. */
    public static final SocketOption<Integer> ORD = new IwarpSocketOption<>("IWARP_ORD", Integer.class);

    /**
     * Largest FPDU this side sends, in bytes, framing included (64 to 65544). Default 0: one
     * TCP segment of the path, as hardware and Linux siw size them, from the MTU of the local
     * interface less the IP and TCP headers and the timestamp option: 1448 on a 1500-byte
     * Ethernet path, 65484 on loopback. The size in use is in {@code iwarp().settings()}.
     */
    public static final SocketOption<Integer> MAX_FPDU_SIZE =
            new IwarpSocketOption<>("IWARP_MAX_FPDU_SIZE", Integer.class);

    /**
     * The MPA revision to request: 2 (enhanced setup, RFC 6581; the default) or 1 (RFC 5044).
     * A responder accepts revision-1 initiators either way.
     */
    public static final SocketOption<Integer> MPA_REVISION =
            new IwarpSocketOption<>("IWARP_MPA_REVISION", Integer.class);

    /**
     * The ready-to-receive frame that lets either side speak first (RFC 6581 peer-to-peer
     * mode). Default {@link ReadyToReceive#ZERO_LENGTH_WRITE}, what Linux siw picks.
     */
    public static final SocketOption<ReadyToReceive> READY_TO_RECEIVE =
            new IwarpSocketOption<>("IWARP_READY_TO_RECEIVE", ReadyToReceive.class);

    /** How long MPA negotiation may take, in milliseconds. Default 10000. */
    public static final SocketOption<Integer> MPA_TIMEOUT =
            new IwarpSocketOption<>("IWARP_MPA_TIMEOUT", Integer.class);

    /**
     * Private data for the application in the MPA Request or Reply (at most 256 bytes); the
     * peer's is available from {@link io.extsock.verbs.IwarpConnection#peerPrivateData()}.
     */
    public static final SocketOption<byte[]> PRIVATE_DATA =
            new IwarpSocketOption<>("IWARP_PRIVATE_DATA", byte[].class);

    /**
     * Whether the socket's input and output streams run over RDMAP Sends (default true). Sends
     * and Receives then belong to the streams; set false to post your own Sends and Receives
     * (for example to talk to a peer that is not extsock). RDMA Write and Read are available
     * either way.
     */
    public static final SocketOption<Boolean> STREAMS =
            new IwarpSocketOption<>("IWARP_STREAMS", Boolean.class);

    /**
     * Runs between negotiation and the first byte from the peer: register memory and post
     * Receives there, so that a peer that sends at once finds them (see {@link IwarpSetup}).
     * On an ExtendedServerSocket it runs for every accepted connection. Default: nothing.
     */
    public static final SocketOption<IwarpSetup> SETUP = new IwarpSocketOption<>("IWARP_SETUP", IwarpSetup.class);

    /**
     * Lets a connection switched at connect or accept go on as plain TCP when the peer turns out
     * not to be an iWARP peer, instead of failing. Default false: the switch then fails as
     * described at {@link #IWARP_MODE}.
     *
     * <p>The peer is not an iWARP peer when, before its MPA key ("MPA ID Req Frame" from an
     * initiator, "MPA ID Rep Frame" from a responder) is complete, it sends anything else, closes
     * or resets the connection, or says nothing within {@link #FALLBACK_WAIT}. A peer whose key
     * arrived is an iWARP peer: its rejection ({@code REJECTED}), settings that cannot agree
     * ({@code INCOMPATIBLE}) or a broken frame ({@code MALFORMED}) fail the switch as without
     * this option.
     *
     * <ul>
     *   <li>The side that connected has sent its MPA Request on that connection, so it closes it
     *       and connects again, plain, to the same address (from the same local address if the
     *       socket was bound, on a new ephemeral port), before the application wrote a byte: the
     *       socket object stays the same, and a server that speaks first greets it on the new
     *       connection. If that connect fails, {@code connect} throws its error (the negotiation
     *       failure suppressed in it), as a plain connect would.
     *   <li>The accepted side serves the same connection as plain TCP, the octets the peer sent
     *       during the wait readable first: none lost, none read twice. A client that says
     *       nothing costs the wait, once per connection, before the server's first read or write
     *       returns (the greeting of a server that speaks first goes out after it).
     * </ul>
     *
     * <p>Afterwards {@code getOption(IWARP_MODE)} reads false and {@link
     * ExtendedSocket#iwarpFallbackCause()} says why. A switch of a connection that may already
     * have carried stream ({@code setOption(IWARP_MODE, true)} on a connected socket) cannot
     * fall back and fails as without this option.
     */
    public static final SocketOption<Boolean> FALLBACK =
            new IwarpSocketOption<>("IWARP_FALLBACK", Boolean.class);

    /**
     * With {@link #FALLBACK}: how long, in milliseconds, the switch waits for the peer's MPA key
     * before it takes a silent peer for a plain TCP one. Default 1000.
     *
     * <p>Why shorter than {@link #MPA_TIMEOUT}: an iWARP peer sends its key at once (an
     * initiator right after connect, a responder one round trip later, once its application
     * uses the accepted socket), so a second covers a slow path and a busy peer; a plain peer
     * that waits for the other side to speak (a server that greets first, a client that waits
     * for the greeting) costs this wait on every connection. Too short, and an iWARP peer that is
     * slow to answer is taken for a plain one: the initiator then reconnects plain, and an
     * iWARP-only server refuses that connection. The MPA timeout still bounds the whole
     * negotiation.
     */
    public static final SocketOption<Integer> FALLBACK_WAIT =
            new IwarpSocketOption<>("IWARP_FALLBACK_WAIT", Integer.class);

    /**
     * How long, in microseconds, a thread about to wait for this connection (a read, a
     * completion) first polls its socket before it blocks; 0 never to poll. Default: the system
     * property {@code extsock.spin.micros}, else 50. At most {@value #MAX_SPIN_MICROS}.
     *
     * <p>A reply that comes within the spin spares the waiting thread a sleep and a wake-up, and
     * its sender the dearer half of a write (waking a sleeping reader): on a machine with a CPU
     * to spare, small round trips take a fraction of plain TCP's. The spin is the longest one: a
     * connection whose spins find nothing halves them and soon stops, probing now and then; no
     * thread spins on a single CPU, nor while the machine has no CPU to spare, nor beyond one
     * spinning thread a CPU (the system property {@code extsock.spin.threads}); virtual threads
     * never spin. Set 0 where this connection's CPU matters more than its latency: under a CPU
     * quota (a container's, which the machine's count of ready threads does not see), or beside
     * CPU-bound work of the application's own. Set it longer for a latency-critical connection
     * whose peer takes more than the default to answer: a spin shorter than the answer finds
     * nothing, and soon stops.
     *
     * <p>Unlike the other iWARP options, which the switch negotiates, this one is this end's
     * own: it may also be set on a live IWARP_MODE connection, and counts from its next wait.
     */
    public static final SocketOption<Integer> SPIN_MICROS =
            new IwarpSocketOption<>("IWARP_SPIN_MICROS", Integer.class);

    /**
     * The longest {@link #SPIN_MICROS}: 10 ms. Longer is a wait of its own, not a spin, and a
     * connection whose spins find nothing burns about twice its longest before it stops.
     */
    public static final int MAX_SPIN_MICROS = 10_000;

    /**
     * On an {@link ExtendedServerSocket} with IWARP_MODE: negotiate each connection as it
     * arrives, before the application accepts it, as the kernel completes TCP's handshake
     * before {@code accept}. Default false: each accepted connection negotiates on its first
     * use, on the thread that uses it (see {@link ExtendedServerSocket}).
     *
     * <p>A client's connect then ends one round trip after its MPA Request, however long the
     * server's application takes to get to that connection; with many clients connecting at
     * once, setup no longer waits for the server's accept loop (a thread start per connection,
     * say). In return:
     * <ul>
     *   <li>Every connection negotiates with the iWARP options the server socket has at its
     *       first {@code accept}; they cannot change afterwards (setting one throws), and
     *       {@code accept} returns sockets already in IWARP_MODE, whose iWARP options are
     *       settled.
     *   <li>A connection whose negotiation fails is closed and never returned by {@code
     *       accept} (it is logged and recorded as a failed negotiation); with {@link #FALLBACK},
     *       one whose peer is not an iWARP peer is returned as plain TCP, as on first use.
     *   <li>The negotiations run on one thread of the server socket's, without blocking: one
     *       that stalls holds a few KiB and a file descriptor until {@link #MPA_TIMEOUT}, never
     *       a thread. At most 1024 are pending at once: past that, a new connection ends the
     *       oldest pending one (an honest client negotiates within a round trip). At most the
     *       server socket's backlog of negotiated connections wait for {@code accept}; past that
     *       the kernel's backlog holds the rest. {@link #SETUP} runs on that thread too, once per
     *       connection.
     * </ul>
     * Not one of {@link #ALL}: a connection has no such option; only ExtendedServerSocket takes it.
     */
    public static final SocketOption<Boolean> NEGOTIATE_BEFORE_ACCEPT =
            new IwarpSocketOption<>("IWARP_NEGOTIATE_BEFORE_ACCEPT", Boolean.class);

    /**
     * Which iWARP carries a connection switched at connect or accept: the software engine over
     * the host's TCP, or an RDMA device (an iWARP adapter, Linux siw) through a device provider
     * such as extsock-rdma. Default {@link Provider#AUTO}. Must be set before connect (or, on an
     * ExtendedServerSocket, before its first accept).
     *
     * <p>A device makes its own connections (rdma_cm resolves, connects and listens; the adapter
     * owns the TCP connection), so only a socket with IWARP_MODE set before connect, or a server
     * socket with IWARP_MODE set before its first accept, can run on one. IWARP_MODE set on a
     * connected socket always switches on the software engine. The choice and the device show
     * in {@code iwarp().settings()}.
     */
    public static final SocketOption<Provider> PROVIDER =
            new IwarpSocketOption<>("IWARP_PROVIDER", Provider.class);

    /** Every option of this class that a connection takes (all but {@link #NEGOTIATE_BEFORE_ACCEPT}). */
    public static final Set<SocketOption<?>> ALL = Set.of(IWARP_MODE, CRC, MARKERS, IRD, ORD,
            MAX_FPDU_SIZE, MPA_REVISION, READY_TO_RECEIVE, MPA_TIMEOUT, PRIVATE_DATA, STREAMS, SETUP,
            FALLBACK, FALLBACK_WAIT, SPIN_MICROS, PROVIDER);

    /** The zero-length message that tells the peer this side is ready (RFC 6581 section 4). */
    public enum ReadyToReceive {
        /** A zero-length RDMA Write (Linux siw's choice). */
        ZERO_LENGTH_WRITE,
        /** A zero-length RDMA Read. */
        ZERO_LENGTH_READ,
        /** A zero-length Send. */
        ZERO_LENGTH_SEND,
        /** No peer-to-peer mode: the responder must not send before the initiator does. */
        NONE
    }

    /** The values of {@link #PROVIDER}. */
    public enum Provider {
        /**
         * A device when the address is on one and a device provider is present (a connecting
         * socket: the route to the peer's address; a server socket: its bound address, a
         * wildcard address being on none), else the software engine.
         */
        AUTO,
        /** Always the software engine, over the host's TCP. */
        SOFTWARE,
        /**
         * Always a device: connect or accept fails, naming why, when no device provider is
         * present or the address is on no RDMA device, and a switch of a connected socket fails.
         */
        DEVICE;

        /**
         * The value's name as the command line and {@code settings()} write it.
         *
         * @return {@code auto}, {@code software} or {@code device}
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * Reads a value as a person writes it.
         *
         * @param text {@code auto}, {@code software} or {@code device}, in any case
         * @return the value
         * @throws IllegalArgumentException naming the allowed values, for any other text
         */
        public static Provider parse(String text) {
            for (Provider provider : values()) {
                if (provider.label().equalsIgnoreCase(String.valueOf(text).trim())) {
                    return provider;
                }
            }
            throw new IllegalArgumentException(PROVIDER + " must be auto, software or device, not '" + text + "'");
        }
    }

    private IwarpOptions() {
    }
}

package io.extsock.internal;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.spi.AcceptedAhead;
import io.extsock.spi.DeviceSession;
import io.extsock.spi.IwarpSession;
import io.extsock.spi.NotAnIwarpPeerException;
import io.extsock.spi.SocketTransport;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One socket's mode: passthrough TCP, or IWARP_MODE once it switched. Holds the iWARP options
 * set before the switch, makes the switch (at connect, when IWARP_MODE is set on a connected
 * socket, or on the first use of a socket accepted by an IWARP_MODE server), and, when the peer
 * is plain TCP and the application asked for {@link IwarpOptions#FALLBACK}, carries the socket
 * on as plain TCP: the octets the engine read come first (responder), or the socket connects
 * again (initiator). A socket with IWARP_MODE set before connect may instead connect on an RDMA
 * device, as {@link IwarpOptions#PROVIDER} and {@link ProviderChooser} decide.
 */
public final class IwarpSwitch {

    /** What the switch needs of the socket it switches. */
    public interface Socket {
        /**
         * The socket's channel now (a fallback's reconnect replaces it).
         *
         * @return the channel
         * @throws SocketException if the socket is closed
         */
        SocketChannel channel() throws SocketException;

        /**
         * What carries the socket's stream now.
         *
         * @return the transport; null before the socket connected
         */
        SocketTransport transport();

        /**
         * Whether the socket is connected (a switch then happens at once).
         *
         * @return whether it is
         */
        default boolean connected() {
            return transport() != null;
        }

        /**
         * From now on, {@code transport} carries the socket's stream.
         *
         * @param transport the iWARP session's stream, or plain TCP after a fallback
         */
        void carryOn(SocketTransport transport);

        /**
         * Connects a new channel to the same peer, as the application set it up.
         *
         * @param why the negotiation failure that made the switch fall back
         * @return the new connection's local address
         * @throws IOException if the new connection fails (the socket is then closed)
         */
        InetSocketAddress reconnectPlain(IwarpNegotiationException why) throws IOException;

        /**
         * A responder's switch found a plain TCP peer: the socket goes on as plain TCP, the
         * octets the engine read from the peer readable first.
         *
         * @param receivedOctets what the engine read from the peer
         */
        default void carryOnPlain(byte[] receivedOctets) {
            carryOn(PrefixedTransport.of(transport(), receivedOctets));
        }

        /**
         * Closes the socket (not just its channel) after {@code failure}.
         *
         * @param failure why; what closing throws is added to it
         */
        void closeOwner(Exception failure);
    }

    private final Socket socket;
    private final PolicyDecision policy;
    /** iWARP options set before the switch; handed to the engine when it takes over. */
    private final Map<SocketOption<?>, Object> settings = Collections.synchronizedMap(new LinkedHashMap<>());
    /** A ReentrantLock, not a monitor: the switch does blocking I/O, and a virtual thread must not pin. */
    private final ReentrantLock lock = new ReentrantLock();
    /** The iWARP session once the connection switched; null in passthrough. */
    private volatile IwarpSession session;
    /** An accepted connection of an IWARP_MODE server socket, to switch on its first use. */
    private volatile boolean pending;
    /** Why a switch with IwarpOptions.FALLBACK went on as plain TCP; null if none did. */
    private volatile IwarpNegotiationException fallbackCause;
    /** TCP_NODELAY as the application set it; in IWARP_MODE the engine keeps the real one on. */
    private volatile boolean applicationNoDelay;

    /**
     * A socket's switch, in passthrough until it switches.
     *
     * @param socket what the switch switches
     * @param policy the agent's policy for its connections, or null
     */
    public IwarpSwitch(Socket socket, ConnectionPolicy policy) {
        this.socket = socket;
        this.policy = new PolicyDecision(policy);
    }

    /**
     * Before connect: with IWARP_MODE set and a device chosen for {@code remote}, connects on
     * the device instead of the socket's channel, which then carries nothing (the adapter owns
     * the TCP connection). On failure the socket is closed.
     *
     * @return the device connection's local address; empty when the channel is to connect as usual
     * @throws IOException the device's connect error, or why PROVIDER device found no device
     */
    Optional<InetSocketAddress> connectOnDevice(InetSocketAddress remote, int timeoutMillis) throws IOException {
        if (!Boolean.TRUE.equals(settings.get(IwarpOptions.IWARP_MODE))) {
            return Optional.empty();
        }
        lock.lock();
        try {
            Optional<ProviderChooser.DeviceChoice> choice = ProviderChooser.installed().choose(settings,
                    remote.getAddress(), "the connection to " + SocketAddresses.hostAndPort(remote));
            if (choice.isEmpty()) {
                return Optional.empty();
            }
            Map<SocketOption<?>, Object> options = new HashMap<>(settings);
            options.put(IwarpOptionValues.NO_EARLIER_STREAM, Boolean.TRUE);
            DeviceSession connected = choice.get().provider().connect(remote, timeoutMillis, Map.copyOf(options));
            runOnDevice(connected);
            return Optional.of(connected.localAddress());
        } catch (IOException | RuntimeException e) {
            socket.closeOwner(e);
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /**
     * From now on the connection runs on a device: its stream carries the socket's bytes, and
     * the socket's own channel, which carries nothing, closes with it.
     */
    void runOnDevice(DeviceSession connection) throws IOException {
        Object spin = settings.get(IwarpOptions.SPIN_MICROS);
        if (spin != null) {
            connection.spinMicros((Integer) spin);
        }
        socket.carryOn(new DeviceTransport(connection.stream(), socket.channel()));
        session = connection;
        pending = false;
    }

    /** Whether the connection runs iWARP. */
    public boolean iwarpMode() {
        return session != null;
    }

    /** The iWARP session, or null in passthrough. */
    public IwarpSession session() {
        return session;
    }

    /**
     * The extended side of the connection, once a switch pending on first use completed.
     *
     * @throws SocketException if the connection is not in IWARP_MODE
     */
    public IwarpConnection connection() throws IOException {
        completePending();
        IwarpSession current = session;
        if (current == null) {
            throw new SocketException("the socket is not in IWARP_MODE: set IwarpOptions.IWARP_MODE to true first");
        }
        return current.connection();
    }

    /** Why a switch fell back to plain TCP, if one did. */
    public Optional<IwarpNegotiationException> fallbackCause() {
        return Optional.ofNullable(fallbackCause);
    }

    /** An accepted socket takes its server socket's iWARP options. */
    public void inherit(Map<SocketOption<?>, Object> serverSettings) {
        settings.putAll(serverSettings);
    }

    /**
     * The connection is established: the policy, if any, decides its options (an exception it
     * throws reaches the connect or accept).
     */
    public void established(boolean initiator, SocketChannel channel) throws IOException {
        policy.decide(initiator, channel, settings);
    }

    /**
     * An accepted socket: the responder's negotiation waits for the first use of the socket, on
     * the thread that uses it, so that accept() never blocks on a slow peer and a failure reaches
     * that thread.
     */
    public void deferToFirstUse() {
        pending = Boolean.TRUE.equals(settings.get(IwarpOptions.IWARP_MODE));
    }

    /** A socket whose server negotiated before accept: in IWARP_MODE already, or plain after a fallback. */
    void acceptedAhead(AcceptedAhead connection) {
        if (connection.session() != null) {
            session = connection.session();
        } else {
            fallbackCause = connection.fellBack().negotiationFailure();
            settings.remove(IwarpOptions.IWARP_MODE);
        }
    }

    /** The socket closes: a switch that never happened is reported to the policy as failed. */
    public void socketClosing() {
        if (pending && !lock.isLocked()) {
            // (A switch under way reports its own failure, with the reason.)
            policy.report(ConnectionPolicy.Outcome.FAILED, "closed before its first use, never switched");
        }
    }

    /** Completes the deferred switch of an accepted connection, once, on first use. */
    public void completePending() throws IOException {
        if (pending) {
            switchIfRequested(false, true);  // accepted by an IWARP_MODE server: no stream yet
        }
    }

    /**
     * Sets an iWARP option: IWARP_MODE on a connected socket switches it now.
     *
     * @param initiator whether this side connected
     */
    public void set(SocketOption<?> option, Object value, boolean initiator) throws IOException {
        if (option == IwarpOptions.IWARP_MODE) {
            boolean on = (Boolean) value;
            if (!on && iwarpMode()) {
                throw new SocketException("IWARP_MODE cannot be turned off: the connection runs iWARP");
            }
            if (on && socket.connected() && !pending
                    && IwarpOptionValues.valueIn(settings, IwarpOptions.PROVIDER) == IwarpOptions.Provider.DEVICE) {
                throw new SocketException("IWARP_PROVIDER is device, but this socket is connected over the host's TCP"
                        + " already: a device makes its own connections, so set IWARP_MODE before connect");
            }
            IwarpOptionValues.store(settings, option, value);
            if (on && socket.connected()) {
                // An accepted socket still waiting for its deferred switch has carried no stream;
                // any other connected socket may have.
                switchIfRequested(initiator, pending);
            }
            return;
        }
        if (option == IwarpOptions.SPIN_MICROS) {
            setSpinMicros((Integer) value);
            return;
        }
        if (iwarpMode()) {
            throw new SocketException(option + " must be set before the switch to IWARP_MODE");
        }
        IwarpOptionValues.store(settings, option, value);
    }

    /** An iWARP option's value: as set, or its default. */
    @SuppressWarnings("unchecked")
    public <T> T get(SocketOption<T> option) {
        if (option == IwarpOptions.IWARP_MODE) {
            return (T) Boolean.valueOf(iwarpMode() || pending || Boolean.TRUE.equals(settings.get(option)));
        }
        return IwarpOptionValues.copyOfValueIn(settings, option);
    }

    /**
     * SPIN_MICROS is this end's own behaviour, not negotiated: unlike the other iWARP options it
     * may change on a live connection. A switch under way applies it again once its session is
     * up, so that a value set meanwhile is not lost.
     */
    private void setSpinMicros(int micros) {
        IwarpOptionValues.validate(IwarpOptions.SPIN_MICROS, micros);
        settings.put(IwarpOptions.SPIN_MICROS, micros);
        IwarpSession current = session;
        if (current != null) {
            current.spinMicros(micros);
        }
    }

    /**
     * Sets TCP_NODELAY as the application sees it. In IWARP_MODE the engine keeps Nagle's
     * algorithm off, as Linux siw and hardware do: it writes whole FPDUs and batches its own
     * writes, and Nagle would hold back the small credit and Read messages a peer waits for (a
     * stream then crawls at a few MB/s). The application still sees TCP_NODELAY as it set it.
     *
     * @return whether that was all (IWARP_MODE); false: the caller sets it on the channel
     */
    public boolean setNoDelay(boolean on) {
        if (iwarpMode()) {
            applicationNoDelay = on;
            return true;
        }
        return false;
    }

    /** TCP_NODELAY as the application set it, in IWARP_MODE (elsewhere the channel's own). */
    public boolean applicationNoDelay() {
        return applicationNoDelay;
    }

    /**
     * Hands the connection to the iWARP engine when IWARP_MODE was asked for. The engine owns
     * the channel from then on; on failure it has closed it, and so the socket is closed.
     *
     * @param noEarlierStream whether the connection has carried no stream yet (a fallback can
     *     then give the application a plain stream without a gap)
     */
    public void switchIfRequested(boolean initiator, boolean noEarlierStream) throws IOException {
        lock.lock();
        try {
            if (iwarpMode() || !Boolean.TRUE.equals(settings.get(IwarpOptions.IWARP_MODE))) {
                return;
            }
            SocketChannel channel = socket.channel();
            try {
                applicationNoDelay = channel.getOption(StandardSocketOptions.TCP_NODELAY);  // the engine turns it on
                Map<SocketOption<?>, Object> options = new HashMap<>(settings);
                if (noEarlierStream) {
                    options.put(IwarpOptionValues.NO_EARLIER_STREAM, Boolean.TRUE);
                } else {
                    // The connection may have carried stream: neither a reconnect nor the octets
                    // read so far could give the application a plain stream without a gap.
                    options.remove(IwarpOptions.FALLBACK);
                }
                IwarpSession attached = IwarpProviders.require().attach(channel, initiator, Map.copyOf(options));
                Object spin = settings.get(IwarpOptions.SPIN_MICROS);
                if (spin != null) {
                    attached.spinMicros((Integer) spin);  // it may have changed since the copy above
                }
                socket.carryOn(attached.stream());
                session = attached;
                pending = false;
                policy.report(ConnectionPolicy.Outcome.IWARP, "negotiated");
            } catch (NotAnIwarpPeerException plainPeer) {
                endedAsPlainTcp(initiator, plainPeer);
            } catch (IOException | RuntimeException e) {
                pending = false;
                policy.report(ConnectionPolicy.Outcome.FAILED, String.valueOf(e));
                socket.closeOwner(e);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The switch found a plain TCP peer and the application asked for FALLBACK: the socket goes
     * on as plain TCP, IWARP_MODE off, the cause kept. As responder the engine left the channel
     * open and handed back the octets it read, which come first; as initiator it closed the
     * channel, whose peer had read our MPA Request, so the socket connects again.
     *
     * @throws IOException the reconnect's error; the socket is then closed
     */
    private void endedAsPlainTcp(boolean initiator, NotAnIwarpPeerException plainPeer) throws IOException {
        IwarpNegotiationException why = plainPeer.negotiationFailure();
        fallbackCause = why;
        String detail = why.getMessage();
        if (initiator) {
            try {
                InetSocketAddress reconnectedFrom = socket.reconnectPlain(why);
                // The policy heard of the first connection's addresses; the stream runs on this one.
                detail += "; reconnected from " + SocketAddresses.hostAndPort(reconnectedFrom);
            } catch (IOException e) {
                policy.report(ConnectionPolicy.Outcome.FAILED, "not an iWARP peer (" + why.reason()
                        + "), and the plain reconnect failed: " + e);
                throw e;
            }
        } else {
            socket.carryOnPlain(plainPeer.receivedOctets());
        }
        // Only now: a thread that finds no switch pending uses the transport at once.
        settings.remove(IwarpOptions.IWARP_MODE);
        pending = false;
        policy.report(ConnectionPolicy.Outcome.FELL_BACK, detail);
    }
}

package io.extsock.testkit.pair;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.testkit.fault.FaultPlan;
import io.extsock.testkit.fault.FaultRelay;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Two {@link ExtendedSocket}s on loopback, connected, and (once {@link #switchBoth()} has run)
 * both switched to {@link IwarpOptions#IWARP_MODE}: the client end as MPA initiator, the
 * accepted end as responder.
 *
 * <p>A switch waits for its peer's, so the two cannot be made one after the other on one
 * thread: the accepted end switches on a thread of its own, started for the switch and joined
 * before {@code switchBoth} returns, so that no pool thread lingers to look like a leak in a
 * test that counts threads.
 *
 * <p>The sockets connect directly, or through a {@link FaultRelay} with a {@link FaultPlan}
 * each way (upstream is client to server). Options given per side ({@link IwarpOptions#STREAMS},
 * {@link IwarpOptions#CRC}, a {@code SETUP} hook, {@code TCP_NODELAY}, ...) are set on that side
 * just before its switch, in the order given.
 *
 * <pre>{@code
 * try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
 *     pair.clientVerbs().post(...);
 * }
 * try (IwarpSocketPair pair = IwarpSocketPair.builder()
 *         .through(FaultPlan.none().resetAt(4096), FaultPlan.none())
 *         .option(IwarpOptions.CRC, true)
 *         .connect()) {          // still plain TCP
 *     pair.switchBoth();
 * }
 * }</pre>
 *
 * <p>{@link #close()} closes everything the pair opened: the client, the accepted socket, the
 * relay, the server socket. An open or a switch that fails closes what it opened (a failed
 * switch has already closed its socket) and throws the switch's own {@link IOException}, not a
 * wrapper: a test can assert on an {@code IwarpNegotiationException} directly.
 */
public final class IwarpSocketPair implements AutoCloseable {

    /** How long a switch may take before the pair gives up on it. */
    private static final long SWITCH_SECONDS = 30;

    private final ExtendedServerSocket server;
    private final FaultRelay relay;
    private final ExtendedSocket client;
    private final ExtendedSocket accepted;
    private final Map<SocketOption<?>, Object> clientOptions;
    private final Map<SocketOption<?>, Object> serverOptions;

    private IwarpSocketPair(ExtendedServerSocket server, FaultRelay relay, ExtendedSocket client,
                            ExtendedSocket accepted, Builder builder) {
        this.server = server;
        this.relay = relay;
        this.client = client;
        this.accepted = accepted;
        // copies, in the order given: the builder may go on to make other pairs
        this.clientOptions = Collections.unmodifiableMap(new LinkedHashMap<>(builder.clientOptions));
        this.serverOptions = Collections.unmodifiableMap(new LinkedHashMap<>(builder.serverOptions));
    }

    /**
     * A pair with the default options, connected directly and switched.
     *
     * @return the open pair
     * @throws IOException when connecting or a switch fails (everything opened is closed)
     */
    public static IwarpSocketPair open() throws IOException {
        return builder().open();
    }

    /**
     * A pair with these options on each side, set before the switch, connected directly and
     * switched.
     *
     * @param clientOptions the client's options
     * @param serverOptions the accepted socket's options
     * @return the open pair
     * @throws IOException when connecting or a switch fails (everything opened is closed)
     */
    public static IwarpSocketPair open(Map<SocketOption<?>, Object> clientOptions,
                                       Map<SocketOption<?>, Object> serverOptions) throws IOException {
        return builder().clientOptions(clientOptions).serverOptions(serverOptions).open();
    }

    /**
     * A verbs-only pair ({@link IwarpOptions#STREAMS} false on both sides: the application owns
     * Sends and Receives), connected directly and switched.
     *
     * @return the open pair
     * @throws IOException when connecting or a switch fails (everything opened is closed)
     */
    public static IwarpSocketPair openVerbs() throws IOException {
        return builder().option(IwarpOptions.STREAMS, false).open();
    }

    /**
     * A builder, for a relay or options set one by one.
     *
     * @return a builder of a direct pair with no options
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Switches both ends to IWARP_MODE at once, each after its options are set: the client on
     * this thread, the accepted socket on a thread of its own, joined before this returns.
     *
     * @throws IOException the client's switch failure, else the accepted end's (the other's, if
     *                     any, is added as suppressed); an {@link InterruptedIOException} when
     *                     interrupted or when the accepted end's switch did not end in time
     */
    public void switchBoth() throws IOException {
        FutureTask<Void> responder = new FutureTask<>(() -> {
            apply(accepted, serverOptions);
            accepted.setOption(IwarpOptions.IWARP_MODE, true);
            return null;
        });
        Thread responderThread = new Thread(responder, "switches-the-accepted-end");
        responderThread.start();
        IOException failure = null;
        try {
            apply(client, clientOptions);
            client.setOption(IwarpOptions.IWARP_MODE, true);
        } catch (IOException e) {
            failure = e;
        }
        try {
            try {
                responder.get(SWITCH_SECONDS, TimeUnit.SECONDS);
            } finally {
                if (responder.isDone()) {
                    // Its task ended, well or not; its thread ends right after, and a caller may
                    // count on it being gone (it was joined only when the switch succeeded).
                    responderThread.join(TimeUnit.SECONDS.toMillis(SWITCH_SECONDS));
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (failure != null) {
                failure.addSuppressed(cause);
            } else if (cause instanceof IOException io) {
                failure = io;
            } else if (cause instanceof RuntimeException runtime) {
                throw runtime;
            } else if (cause instanceof Error error) {
                throw error;
            } else {
                throw new IOException("the accepted end's switch failed", cause);
            }
        } catch (TimeoutException e) {
            InterruptedIOException timedOut = new InterruptedIOException(
                    "the accepted end's switch did not end within " + SWITCH_SECONDS + " s");
            if (failure != null) {
                timedOut.addSuppressed(failure);
            }
            throw timedOut;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while switching");
            if (failure != null) {
                interrupted.addSuppressed(failure);
            }
            throw interrupted;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** @return the client end, the MPA initiator */
    public ExtendedSocket client() {
        return client;
    }

    /** @return the accepted end, the MPA responder */
    public ExtendedSocket accepted() {
        return accepted;
    }

    /** @return the server socket the client connected to (directly or through the relay) */
    public ExtendedServerSocket server() {
        return server;
    }

    /**
     * The relay between the two ends.
     *
     * @return the relay
     * @throws IllegalStateException when the pair connected directly
     */
    public FaultRelay relay() {
        if (relay == null) {
            throw new IllegalStateException("this pair connected directly, without a relay");
        }
        return relay;
    }

    /**
     * The client's verbs.
     *
     * @return the client end's iWARP connection
     * @throws IOException when the client has not switched, or its switch failed
     */
    public IwarpConnection clientVerbs() throws IOException {
        return client.iwarp();
    }

    /**
     * The accepted end's verbs.
     *
     * @return the accepted end's iWARP connection
     * @throws IOException when the accepted end has not switched, or its switch failed
     */
    public IwarpConnection serverVerbs() throws IOException {
        return accepted.iwarp();
    }

    /** Closes the client, the accepted socket, the relay and the server socket, in that order. */
    @Override
    public void close() throws IOException {
        closeAll(List.of(client, accepted), relay, server);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void apply(ExtendedSocket socket, Map<SocketOption<?>, Object> options) throws IOException {
        for (Map.Entry<SocketOption<?>, Object> option : options.entrySet()) {
            socket.setOption((SocketOption) option.getKey(), option.getValue());
        }
    }

    /** Closes each that is not null, all of them whatever fails; throws the first failure. */
    private static void closeAll(List<? extends AutoCloseable> sockets, AutoCloseable relay, AutoCloseable server)
            throws IOException {
        List<AutoCloseable> all = new ArrayList<>(sockets);
        all.add(relay);
        all.add(server);
        IOException failure = null;
        for (AutoCloseable closeable : all) {
            if (closeable == null) {
                continue;
            }
            try {
                closeable.close();
            } catch (Exception e) {
                IOException io = e instanceof IOException ioe ? ioe : new IOException(e);
                if (failure == null) {
                    failure = io;
                } else {
                    failure.addSuppressed(io);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** How to make a pair: the relay (if any) and each side's options. */
    public static final class Builder {

        private final Map<SocketOption<?>, Object> clientOptions = new LinkedHashMap<>();
        private final Map<SocketOption<?>, Object> serverOptions = new LinkedHashMap<>();
        private FaultPlan upstream;
        private FaultPlan downstream;

        private Builder() {
        }

        /**
         * Connects through a {@link FaultRelay} with these plans.
         *
         * @param upstream   the plan for what the client sends
         * @param downstream the plan for what the accepted end sends
         * @return this builder
         */
        public Builder through(FaultPlan upstream, FaultPlan downstream) {
            this.upstream = Objects.requireNonNull(upstream, "upstream");
            this.downstream = Objects.requireNonNull(downstream, "downstream");
            return this;
        }

        /**
         * Sets an option on both ends before their switch.
         *
         * @param <T>    the option's type
         * @param option the option
         * @param value  its value
         * @return this builder
         */
        public <T> Builder option(SocketOption<T> option, T value) {
            return clientOption(option, value).serverOption(option, value);
        }

        /**
         * Sets an option on the client end before its switch.
         *
         * @param <T>    the option's type
         * @param option the option
         * @param value  its value
         * @return this builder
         */
        public <T> Builder clientOption(SocketOption<T> option, T value) {
            clientOptions.put(Objects.requireNonNull(option, "option"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Sets an option on the accepted end before its switch.
         *
         * @param <T>    the option's type
         * @param option the option
         * @param value  its value
         * @return this builder
         */
        public <T> Builder serverOption(SocketOption<T> option, T value) {
            serverOptions.put(Objects.requireNonNull(option, "option"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Sets these options on the client end before its switch.
         *
         * @param options options and their values
         * @return this builder
         */
        public Builder clientOptions(Map<SocketOption<?>, Object> options) {
            clientOptions.putAll(options);
            return this;
        }

        /**
         * Sets these options on the accepted end before its switch.
         *
         * @param options options and their values
         * @return this builder
         */
        public Builder serverOptions(Map<SocketOption<?>, Object> options) {
            serverOptions.putAll(options);
            return this;
        }

        /**
         * Connects the two ends (through the relay, if one was asked for); neither has switched,
         * no option is set yet: {@link IwarpSocketPair#switchBoth()} does both.
         *
         * @return the connected pair, plain TCP
         * @throws IOException when binding, connecting or accepting fails (everything opened is closed)
         */
        public IwarpSocketPair connect() throws IOException {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            ExtendedServerSocket server = null;
            FaultRelay relay = null;
            ExtendedSocket client = null;
            ExtendedSocket accepted = null;
            try {
                server = new ExtendedServerSocket(0, 50, loopback);
                InetSocketAddress serverAddress = new InetSocketAddress(loopback, server.getLocalPort());
                if (upstream != null) {
                    relay = FaultRelay.start(serverAddress, upstream, downstream);
                }
                client = new ExtendedSocket();
                client.connect(relay != null ? relay.address() : serverAddress);
                accepted = server.accept();
                if (relay != null) {
                    relay.awaitConnected(10, TimeUnit.SECONDS);
                }
                return new IwarpSocketPair(server, relay, client, accepted, this);
            } catch (IOException | RuntimeException | Error e) {
                try {
                    closeAll(accepted == null ? listOf(client) : List.of(client, accepted), relay, server);
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        /**
         * Connects the two ends and switches both ({@link #connect()}, then
         * {@link IwarpSocketPair#switchBoth()}).
         *
         * @return the open pair
         * @throws IOException the failure of connecting, or of a switch (everything opened is closed)
         */
        public IwarpSocketPair open() throws IOException {
            IwarpSocketPair pair = connect();
            try {
                pair.switchBoth();
                return pair;
            } catch (IOException | RuntimeException | Error e) {
                try {
                    pair.close();
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        private static List<AutoCloseable> listOf(AutoCloseable maybe) {
            return maybe == null ? List.of() : List.of(maybe);
        }
    }
}

package io.extsock.examples.cli;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.IwarpSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where to connect or listen, and the iWARP knobs: the options echo, file and perf share. Whether
 * IWARP_MODE is on by default differs per command, so {@code --iwarp} lives in each command.
 */
public final class ConnectionOptions {

    @Spec(Spec.Target.MIXEE)
    public CommandSpec mixee;

    @Mixin
    public Endpoint endpoint = new Endpoint();

    @Option(names = "--crc", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "IWARP_MODE: ask for MPA CRC32c on every frame (default: on; used when either end asks).")
    public boolean crc;

    @Option(names = "--markers", description = "IWARP_MODE: ask the peer for MPA markers in what it sends.")
    public boolean markers;

    @Option(names = "--mpa-timeout", paramLabel = "MS", defaultValue = "10000",
            description = "IWARP_MODE: how long the MPA negotiation may take, in milliseconds (default: ${DEFAULT-VALUE}).")
    public int mpaTimeoutMillis;

    @Option(names = "--spin-micros", paramLabel = "US",
            description = "IWARP_MODE: how long a thread waiting on the connection polls its socket before it blocks,"
                    + " 0 to " + IwarpOptions.MAX_SPIN_MICROS + " microseconds, 0 never (default: the engine's,"
                    + " the extsock.spin.micros property or 50).")
    public Integer spinMicros;

    /** Checks the client's options (and resolves the host) before anything is printed or sent. */
    public void checkClient() {
        endpoint.address();
        checkMpaTimeout();
        checkSpin();
    }

    /** "host:port" of the server, as messages name it. */
    public String peer() {
        return endpoint.peer();
    }

    /**
     * Connects to the server, switched to IWARP_MODE when asked (its options set before the
     * switch, as they must be); connection failures and a peer that is not in IWARP_MODE become
     * one-line {@link UserError}s.
     */
    public ExtendedSocket connect(boolean iwarp) {
        InetSocketAddress address = endpoint.address();
        checkMpaTimeout();
        ExtendedSocket socket = new ExtendedSocket();
        try {
            if (iwarp) {
                socket.setOption(IwarpOptions.CRC, crc);
                socket.setOption(IwarpOptions.MARKERS, markers);
                socket.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
                if (spinMicros != null) {
                    socket.setOption(IwarpOptions.SPIN_MICROS, spinMicros);
                }
                Sockets.noDelayForIwarp(socket);
                socket.setOption(IwarpOptions.IWARP_MODE, true);  // switches right after the connect
            }
            socket.connect(address, endpoint.connectTimeoutMillis);
            return socket;
        } catch (IOException e) {
            Sockets.closeQuietly(socket);
            throw UserErrors.connecting(peer(), e);
        }
    }

    /**
     * Connects over a java.nio SocketChannel, plain TCP without extsock; returns its Socket, whose
     * {@code getChannel()} is the channel.
     */
    public Socket connectOnChannel() {
        InetSocketAddress address = endpoint.address();
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            Socket socket = channel.socket();
            socket.connect(address, endpoint.connectTimeoutMillis);
            return socket;
        } catch (IOException e) {
            Sockets.closeQuietly(channel);
            throw UserErrors.connecting(peer(), e);
        }
    }

    /** Listens on {@code --host}/{@code --port}; every accepted connection in IWARP_MODE when asked. */
    public ExtendedServerSocket listen(boolean iwarp) {
        checkMpaTimeout();
        checkSpin();
        return endpoint.listen(server -> {
            if (iwarp) {
                server.setOption(IwarpOptions.CRC, crc);
                server.setOption(IwarpOptions.MARKERS, markers);
                server.setOption(IwarpOptions.MPA_TIMEOUT, mpaTimeoutMillis);
                if (spinMicros != null) {
                    server.setOption(IwarpOptions.SPIN_MICROS, spinMicros);
                }
                server.setOption(IwarpOptions.IWARP_MODE, true);
            }
        });
    }

    /** What a server prints once it listens: tests and scripts read the port from it. */
    public String listeningLine(ServerSocket server, boolean iwarp) {
        return Endpoint.listeningOn(server) + ", " + describeMode(iwarp);
    }

    /**
     * The mode a connected socket runs in, as negotiated: what both ends agreed on (CRC is on when
     * either asks, markers flow where the receiver asked for them), not what this end asked for.
     */
    public String describeAgreed(Socket socket) throws IOException {
        String agreed = agreedSettings(socket);
        return agreed == null ? "plain TCP (passthrough)"
                : "IWARP_MODE (" + agreed + (spinMicros != null ? ", spin " + spinMicros + " us" : "") + ")";
    }

    /** As {@link #describeAgreed}, for a socket of any command (a server's accepted connection, say). */
    public static String agreed(Socket socket) throws IOException {
        String agreed = agreedSettings(socket);
        return agreed == null ? "plain TCP (passthrough)" : "IWARP_MODE (" + agreed + ")";
    }

    /** "CRC on, markers off" as negotiated; null for a socket not in IWARP_MODE. */
    public static String agreedSettings(Socket socket) throws IOException {
        if (!(socket instanceof ExtendedSocket extended) || !extended.getOption(IwarpOptions.IWARP_MODE)) {
            return null;
        }
        IwarpSettings settings = extended.iwarp().settings();
        String markers = settings.markersSent() && settings.markersReceived() ? "both ways"
                : settings.markersSent() ? "sent" : settings.markersReceived() ? "received" : "off";
        return "CRC " + (settings.crc() ? "on" : "off") + ", markers " + markers;
    }

    public String describeMode(boolean iwarp) {
        return iwarp ? "IWARP_MODE (CRC " + (crc ? "on" : "off") + ", markers " + (markers ? "on" : "off")
                + (spinMicros != null ? ", spin " + spinMicros + " us" : "") + ")" : "plain TCP (passthrough)";
    }

    private void checkSpin() {
        if (spinMicros != null && (spinMicros < 0 || spinMicros > IwarpOptions.MAX_SPIN_MICROS)) {
            throw new ParameterException(mixee.commandLine(), "--spin-micros must be from 0 to "
                    + IwarpOptions.MAX_SPIN_MICROS + ": " + spinMicros);
        }
    }

    private void checkMpaTimeout() {
        if (mpaTimeoutMillis < 1) {
            throw new ParameterException(mixee.commandLine(), "--mpa-timeout must be at least 1 ms: " + mpaTimeoutMillis);
        }
    }
}

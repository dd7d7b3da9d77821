package io.extsock.internal.nio;

import io.extsock.ExtendedSocketChannel;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;

/**
 * An {@link ExtendedSocketChannel} in passthrough: every call goes to the JDK's socket channel
 * underneath. A blocking call runs between {@link #begin} and {@link #end}, so that an interrupt
 * or an asynchronous close ends it as it ends the JDK's ({@code ClosedByInterruptException},
 * {@code AsynchronousCloseException}) and closes this channel too; a non-blocking call does not
 * block, and skips them as the JDK's does.
 */
public final class PassthroughSocketChannel extends ExtendedSocketChannel implements PlatformBacked {

    private final SocketChannel platform;
    private final PlatformKeys platformKeys = new PlatformKeys();

    /**
     * @param provider the provider that made it
     * @param platform the JDK's channel it runs on, which it owns from now on
     */
    public PassthroughSocketChannel(SelectorProvider provider, SocketChannel platform) {
        super(provider);
        this.platform = platform;
    }

    @Override
    public SelectableChannel platformChannel() {
        return platform;
    }

    @Override
    public void watchedBy(SelectionKey platformKey) {
        platformKeys.add(platformKey);
    }

    @Override
    public SocketChannel bind(SocketAddress local) throws IOException {
        platform.bind(local);
        return this;
    }

    @Override
    public <T> SocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        platform.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        return platform.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return platform.supportedOptions();
    }

    @Override
    public SocketChannel shutdownInput() throws IOException {
        platform.shutdownInput();
        return this;
    }

    @Override
    public SocketChannel shutdownOutput() throws IOException {
        platform.shutdownOutput();
        return this;
    }

    @Override
    public Socket socket() {
        return platform.socket();
    }

    @Override
    public boolean isConnected() {
        return platform.isConnected();
    }

    @Override
    public boolean isConnectionPending() {
        return platform.isConnectionPending();
    }

    @Override
    public boolean connect(SocketAddress remote) throws IOException {
        if (!isBlocking()) {
            return platform.connect(remote);
        }
        boolean completed = false;
        try {
            begin();
            boolean connected = platform.connect(remote);
            completed = true;
            return connected;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    @Override
    public boolean finishConnect() throws IOException {
        if (!isBlocking()) {
            return platform.finishConnect();
        }
        boolean completed = false;
        try {
            begin();
            boolean connected = platform.finishConnect();
            completed = true;
            return connected;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    @Override
    public SocketAddress getRemoteAddress() throws IOException {
        return platform.getRemoteAddress();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!isBlocking()) {
            return platform.read(dst);
        }
        boolean completed = false;
        try {
            begin();
            int n = platform.read(dst);
            completed = true;
            return n;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        if (!isBlocking()) {
            return platform.read(dsts, offset, length);
        }
        boolean completed = false;
        try {
            begin();
            long n = platform.read(dsts, offset, length);
            completed = true;
            return n;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!isBlocking()) {
            return platform.write(src);
        }
        boolean completed = false;
        try {
            begin();
            int n = platform.write(src);
            completed = true;
            return n;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (!isBlocking()) {
            return platform.write(srcs, offset, length);
        }
        boolean completed = false;
        try {
            begin();
            long n = platform.write(srcs, offset, length);
            completed = true;
            return n;
        } catch (ClosedByInterruptException e) {
            completed = true;  // ended as the JDK's call ended: no AsynchronousCloseException from end()
            close();  // the interrupt closed the JDK's channel: this one goes with it
            throw e;
        } finally {
            end(completed);
        }
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        return platform.getLocalAddress();
    }

    @Override
    protected void implCloseSelectableChannel() throws IOException {
        platform.close();
    }

    @Override
    protected void implConfigureBlocking(boolean block) throws IOException {
        if (block) {
            platformKeys.cancelAll();  // only cancelled keys of ours are left (the caller checked)
        }
        platform.configureBlocking(block);
    }

    /** As the JDK's channel describes itself ({@code java.nio.channels.SocketChannel[connected local=...]}). */
    @Override
    public String toString() {
        return platform.toString();
    }
}

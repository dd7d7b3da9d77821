package io.extsock.it.nio.programs;

import io.extsock.ExtendedSelectorProvider;
import io.extsock.IwarpOptions;
import io.extsock.verbs.IwarpConnection;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code NettyEchoClient MODE PORT [TRANSPORT [half-close]]}: a Netty client on its NIO transport that sends
 * {@link Payload#SIZES} messages, ROUNDS times over, to an echo server at 127.0.0.1:PORT (::1 for
 * {@code tcp6}, the path for {@code unix=PATH}) and checks every byte that comes back. Modes and
 * transports as {@link NettyServer}'s (mode {@code iwarp}: IWARP_MODE set on the client bootstrap,
 * so the connection switches at connect). With {@code half-close} it shuts its output once
 * everything is sent. Prints "verified MESSAGES messages BYTES bytes", or where the echo
 * differs, and exits 0 only when every byte came back.
 */
public final class NettyEchoClient {

    private static final int ROUNDS = 3;
    private static final long SEED = 44;

    public static void main(String[] args) throws Exception {
        boolean hook = args[0].equals("hook");
        boolean iwarp = args[0].equals("iwarp");
        int port = Integer.parseInt(args[1]);
        ProviderProof.printJvmsProvider("client");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, hook
                ? NioIoHandler.newFactory(ExtendedSelectorProvider.provider(), DefaultSelectStrategyFactory.INSTANCE)
                : NioIoHandler.newFactory());
        long expected = Payload.total(allSizes());
        CompletableFuture<Long> done = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap().group(group);
        String transport = args.length > 2 ? args[2] : "tcp";
        SocketAddress remote = new InetSocketAddress("127.0.0.1", port);
        if (hook) {
            bootstrap.channelFactory(() -> new NioSocketChannel(ExtendedSelectorProvider.provider()));
        } else if (transport.equals("tcp")) {
            bootstrap.channel(NioSocketChannel.class);
            if (iwarp) {
                bootstrap.option(NioChannelOption.of(IwarpOptions.IWARP_MODE), true);  // switches at connect
            }
        } else if (transport.equals("tcp6")) {
            bootstrap.channelFactory(() -> new NioSocketChannel(SelectorProvider.provider(), SocketProtocolFamily.INET6));
            remote = new InetSocketAddress("::1", port);
        } else {
            bootstrap.channel(NioDomainSocketChannel.class);
            remote = UnixDomainSocketAddress.of(transport.substring("unix=".length()));
        }
        bootstrap.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) {
                channel.pipeline().addLast(new Checker(expected, done));
            }
        });
        Channel channel = bootstrap.connect(remote).sync().channel();
        NettyServer.printChannelAndSelector("client", channel);
        // switched at connect: its mode now, its statistics once the echo came back (the
        // half-closing server may have ended the connection by then)
        IwarpConnection iwarpConnection = iwarp ? IwarpProof.used("client", IwarpProof.javaChannel(channel)) : null;
        long position = 0;
        int messages = 0;
        ChannelFuture written = null;
        for (int size : allSizes()) {
            ByteBuf message = Unpooled.wrappedBuffer(Payload.bytes(SEED, position, size));
            written = channel.writeAndFlush(message);
            position += size;
            messages++;
        }
        if (args.length > 3 && args[3].equals("half-close")) {
            written.sync();  // Netty's shutdownOutput fails the writes not yet done
            ((SocketChannel) channel).shutdownOutput().sync();
        }
        long received = done.get(60, TimeUnit.SECONDS);
        if (iwarp) {
            IwarpProof.printStatistics("client", iwarpConnection);
        }
        channel.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        System.out.println("verified " + messages + " messages " + received + " bytes");
    }

    private static int[] allSizes() {
        int[] all = new int[Payload.SIZES.length * ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            System.arraycopy(Payload.SIZES, 0, all, round * Payload.SIZES.length, Payload.SIZES.length);
        }
        return all;
    }

    /** Checks the echoed stream byte by byte as it arrives; done when all of it came back. */
    private static final class Checker extends SimpleChannelInboundHandler<ByteBuf> {
        private final long expected;
        private final CompletableFuture<Long> done;
        private long position;

        Checker(long expected, CompletableFuture<Long> done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext context, ByteBuf echoed) {
            byte[] bytes = new byte[echoed.readableBytes()];
            echoed.readBytes(bytes);
            long difference = Payload.firstDifference(SEED, position, bytes, 0, bytes.length);
            if (difference >= 0) {
                done.completeExceptionally(new IllegalStateException("the echo differs at byte " + difference));
                return;
            }
            position += bytes.length;
            if (position == expected) {
                done.complete(position);
            } else if (position > expected) {
                done.completeExceptionally(new IllegalStateException("more bytes than sent: " + position));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) {
            done.completeExceptionally(new IllegalStateException("closed after " + position + " of " + expected + " bytes"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            done.completeExceptionally(cause);
        }
    }
}

package io.extsock.it.nio.programs;

import io.extsock.ExtendedSelectorProvider;
import io.extsock.IwarpOptions;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.AbstractNioChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code NettyServer MODE SERVICE [TRANSPORT]}: a Netty server on its NIO transport: {@code echo} sends back every byte it reads ({@code echo-half-close}: with Netty's
 * half-closure allowed, and this side closed once the peer's output ended and the echo went out); {@code http}
 * answers each POST, whose body it checks against {@link Payload} (seed in {@code x-seed}), with a
 * body of {@link Payload} at the next seed. Mode {@code jvm} is Netty as its users write it (the
 * JVM's provider); mode {@code hook} hands Netty extsock's provider through Netty's own
 * parameters; mode {@code iwarp} is mode {@code jvm} with IWARP_MODE set on the server channel
 * through Netty's {@code NioChannelOption}, and prints what {@link IwarpProof} proves of each
 * connection. TRANSPORT (mode {@code jvm} only) is {@code tcp} (the default), {@code tcp6} (channels
 * opened for IPv6, on ::1) or {@code unix=PATH} (Netty's NIO UNIX-domain channels). Prints
 * "listening PORT" (0 for a UNIX-domain path), and how it ran (see {@link ProviderProof}).
 */
public final class NettyServer {

    public static void main(String[] args) throws Exception {
        boolean hook = args[0].equals("hook");
        boolean iwarp = args[0].equals("iwarp");
        boolean http = args[1].equals("http");
        boolean halfClose = args[1].equals("echo-half-close");
        ProviderProof.printJvmsProvider("server");
        IoHandlerFactory handlers = hook
                ? NioIoHandler.newFactory(ExtendedSelectorProvider.provider(), DefaultSelectStrategyFactory.INSTANCE)
                : NioIoHandler.newFactory();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, handlers);
        AtomicBoolean proved = new AtomicBoolean();
        ServerBootstrap bootstrap = new ServerBootstrap().group(group);
        String transport = args.length > 2 ? args[2] : "tcp";
        SocketAddress local = new InetSocketAddress("127.0.0.1", 0);
        if (hook) {
            bootstrap.channelFactory(() -> new NioServerSocketChannel(ExtendedSelectorProvider.provider()));
        } else if (transport.equals("tcp")) {
            bootstrap.channel(NioServerSocketChannel.class);
            if (iwarp) {
                // a server channel's option: each connection it accepts switches at its first use
                bootstrap.option(NioChannelOption.of(IwarpOptions.IWARP_MODE), true);
            }
        } else if (transport.equals("tcp6")) {
            bootstrap.channelFactory(() -> new NioServerSocketChannel(SelectorProvider.provider(), SocketProtocolFamily.INET6));
            local = new InetSocketAddress("::1", 0);
        } else {
            bootstrap.channel(NioServerDomainSocketChannel.class);
            local = UnixDomainSocketAddress.of(transport.substring("unix=".length()));
        }
        if (halfClose) {
            bootstrap.childOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        }
        bootstrap.childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) throws Exception {
                if (proved.compareAndSet(false, true)) {
                    printChannelAndSelector("server", channel);
                }
                if (iwarp) {
                    channel.pipeline().addLast(IwarpProof.nettyWatch("server"));
                }
                if (http) {
                    channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 << 20), new PayloadAnswer());
                } else {
                    channel.pipeline().addLast(new Echo());
                }
                if (halfClose) {
                    channel.pipeline().addLast(new CloseAfterInputShutdown());
                }
            }
        });
        Channel listener = bootstrap.bind(local).sync().channel();
        System.out.println("listening " + (listener.localAddress() instanceof InetSocketAddress inet ? inet.getPort() : 0));
        listener.closeFuture().sync();
    }

    /** The JDK-level channel under a Netty channel, and the selector it is registered with. */
    static void printChannelAndSelector(String who, Channel channel) throws ReflectiveOperationException {
        Object jdkChannel = ProviderProof.call(channel, AbstractNioChannel.class, "javaChannel");
        ProviderProof.print(who, "channel", jdkChannel);
        SelectionKey key = (SelectionKey) ProviderProof.call(channel, AbstractNioChannel.class, "selectionKey");
        if (key != null) {
            ProviderProof.print(who, "selector", key.selector());
        }
    }

    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            context.write(message);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext context) {
            context.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            cause.printStackTrace();
            context.close();
        }
    }

    /**
     * With half-closure allowed, Netty tells once that the peer ended its output and once that
     * reading is over; then the echo, all flushed, ends this side. Prints how many times each.
     */
    private static final class CloseAfterInputShutdown extends ChannelInboundHandlerAdapter {
        private int inputShutdowns;

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) {
            if (event instanceof ChannelInputShutdownEvent) {
                inputShutdowns++;
            } else if (event instanceof ChannelInputShutdownReadComplete) {
                System.out.println("server input shutdown told " + inputShutdowns + " times, then read complete");
                context.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
            context.fireUserEventTriggered(event);
        }
    }

    private static final class PayloadAnswer extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
            long seed = Long.parseLong(request.headers().get("x-seed"));
            ByteBuf body = request.content();
            byte[] received = new byte[body.readableBytes()];
            body.getBytes(body.readerIndex(), received);
            long difference = Payload.firstDifference(seed, 0, received, 0, received.length);
            FullHttpResponse response;
            if (difference >= 0) {
                System.out.println("server request body differs at " + difference);
                response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST);
            } else {
                System.out.println("server request body verified " + received.length);
                byte[] answer = Payload.bytes(seed + 1, 0, received.length);
                response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        Unpooled.wrappedBuffer(answer));
            }
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
            context.writeAndFlush(response);
        }
    }
}

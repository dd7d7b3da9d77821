package io.extsock.it.nio.programs;

import io.extsock.IwarpOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code NettyHttpClient PORT [iwarp]}: Netty's HTTP client codec on its NIO transport, as its
 * users write it (with {@code iwarp}, IWARP_MODE set on its bootstrap through Netty's {@code
 * NioChannelOption}, and what {@link IwarpProof} proves printed): POSTs of several sizes
 * (up to 8 MiB) on one connection to {@link NettyServer}'s {@code http} service at
 * 127.0.0.1:PORT, each answer's body checked byte by byte. Prints "verified N requests BYTES
 * bytes each way" and exits 0 only when every byte of every answer was right.
 */
public final class NettyHttpClient {

    private static final int[] BODY_SIZES = {0, 1, 65_537, 8 << 20};

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean iwarp = args.length > 1 && args[1].equals("iwarp");
        ProviderProof.printJvmsProvider("client");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class);
        if (iwarp) {
            bootstrap.option(NioChannelOption.of(IwarpOptions.IWARP_MODE), true);  // switches at connect
        }
        Channel channel = bootstrap
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(64 << 20),
                                new SimpleChannelInboundHandler<FullHttpResponse>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext context, FullHttpResponse response) {
                                        answers.add(response.retain());
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
                                        answers.add(cause);
                                    }
                                });
                    }
                })
                .connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
        NettyServer.printChannelAndSelector("client", channel);
        long total = 0;
        for (int i = 0; i < BODY_SIZES.length; i++) {
            long seed = 1000L * (i + 1);
            int size = BODY_SIZES[i];
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/payload",
                    Unpooled.wrappedBuffer(Payload.bytes(seed, 0, size)));
            request.headers().set(HttpHeaderNames.HOST, "127.0.0.1:" + port);
            request.headers().set("x-seed", Long.toString(seed));
            request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, size);
            channel.writeAndFlush(request);
            Object answer = answers.poll(60, TimeUnit.SECONDS);
            if (!(answer instanceof FullHttpResponse response)) {
                throw new IllegalStateException("no answer to the POST of " + size + " bytes: " + answer);
            }
            if (response.status().code() != 200) {
                throw new IllegalStateException("the POST of " + size + " bytes: " + response.status());
            }
            byte[] body = new byte[response.content().readableBytes()];
            response.content().readBytes(body);
            response.release();
            if (body.length != size) {
                throw new IllegalStateException("an answer of " + body.length + " bytes to a POST of " + size);
            }
            long difference = Payload.firstDifference(seed + 1, 0, body, 0, size);
            if (difference >= 0) {
                throw new IllegalStateException("the answer to the POST of " + size + " bytes differs at " + difference);
            }
            total += size;
        }
        if (iwarp) {
            IwarpProof.printNow("client", IwarpProof.javaChannel(channel));
        }
        channel.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        System.out.println("verified " + BODY_SIZES.length + " requests " + total + " bytes each way");
    }
}

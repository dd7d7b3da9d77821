package io.extsock.it.nio.programs;

import io.extsock.IwarpOptions;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.nio.NioChannelOption;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code GrpcServer [iwarp]}: a grpc-java server (grpc-netty) on Netty's NIO transport, as its documentation configures it
 * (NIO event loop groups and {@code NioServerSocketChannel}), answering {@link GrpcPayload#ANSWER}:
 * it checks each request against {@link Payload} and answers with {@link Payload} at the next
 * seed. Prints "listening PORT" and the classes of its listening channel and selector. With {@code
 * iwarp}, IWARP_MODE is set through grpc's {@code withOption} on the server channel, and each
 * connection prints what {@link IwarpProof} proves.
 */
public final class GrpcServer {

    public static void main(String[] args) throws Exception {
        boolean iwarp = args.length > 0 && args[0].equals("iwarp");
        ProviderProof.printJvmsProvider("server");
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        AtomicReference<NioServerSocketChannel> listening = new AtomicReference<>();
        ServerServiceDefinition service = ServerServiceDefinition.builder("extsock.Payload")
                .addMethod(GrpcPayload.ANSWER, ServerCalls.asyncUnaryCall((request, answer) -> {
                    long seed = GrpcPayload.seedOf(request);
                    int size = request.length - Long.BYTES;
                    long difference = Payload.firstDifference(seed, 0, request, Long.BYTES, size);
                    if (difference >= 0) {
                        System.out.println("server request differs at " + difference);
                        answer.onError(Status.INVALID_ARGUMENT.withDescription("differs at " + difference).asException());
                        return;
                    }
                    System.out.println("server request verified " + size);
                    answer.onNext(Payload.bytes(seed + 1, 0, size));
                    answer.onCompleted();
                }))
                .build();
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .channelFactory(() -> {
                    NioServerSocketChannel channel = new NioServerSocketChannel();
                    listening.set(channel);
                    if (iwarp) {
                        channel.pipeline().addFirst(new WatchEachConnection());
                    }
                    return channel;
                })
                .maxInboundMessageSize(GrpcPayload.MAX_MESSAGE)
                .addService(service);
        if (iwarp) {
            // grpc's hook for Netty's options of the server channel: its connections switch at first use
            builder.withOption(NioChannelOption.of(IwarpOptions.IWARP_MODE), true);
        }
        Server server = builder.build().start();
        NettyServer.printChannelAndSelector("server", listening.get());
        System.out.println("listening " + server.getPort());
        server.awaitTermination();
    }

    /**
     * Sees each connection the server channel accepts, before grpc's handlers, and puts {@link
     * IwarpProof#nettyWatch} first in its pipeline.
     */
    private static final class WatchEachConnection extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext context, Object accepted) {
            ((Channel) accepted).pipeline().addFirst(IwarpProof.nettyWatch("server"));
            context.fireChannelRead(accepted);
        }
    }
}

package io.extsock.it.nio.programs;

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
 * A grpc-java server (grpc-netty) on Netty's NIO transport, as its documentation configures it
 * (NIO event loop groups and {@code NioServerSocketChannel}), answering {@link GrpcPayload#ANSWER}:
 * it checks each request against {@link Payload} and answers with {@link Payload} at the next
 * seed. Prints "listening PORT" and the classes of its listening channel and selector.
 */
public final class GrpcServer {

    public static void main(String[] args) throws Exception {
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
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .channelFactory(() -> {
                    NioServerSocketChannel channel = new NioServerSocketChannel();
                    listening.set(channel);
                    return channel;
                })
                .maxInboundMessageSize(GrpcPayload.MAX_MESSAGE)
                .addService(service)
                .build()
                .start();
        NettyServer.printChannelAndSelector("server", listening.get());
        System.out.println("listening " + server.getPort());
        server.awaitTermination();
    }
}

package io.extsock.bench;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One verbs operation end to end on a loopback IWARP_MODE connection: post an RDMA Write from
 * a registered buffer (a reused request object) and poll its completion without allocating.
 * The path an RDMA application's steady state takes; run with {@code -prof gc} to see the
 * bytes allocated per operation (target: under 64).
 *
 * <p>Run: {@code java -jar extsock-bench/target/benchmarks.jar VerbsOperationPath -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VerbsOperationPath {

    @Param({"64", "4096"})
    int size;

    private IwarpSocketPair pair;
    private IwarpConnection verbs;
    private WriteRequest write;
    private final CompletionHandler check = completion -> {
        if (completion.status() != CompletionStatus.SUCCESS) {
            throw new IllegalStateException(completion.detail());
        }
    };

    @Setup(Level.Trial)
    public void connect() throws Exception {
        pair = IwarpSocketPair.openVerbs();
        verbs = pair.clientVerbs();
        MemoryRegion target = pair.serverVerbs().register(ByteBuffer.allocateDirect(size),
                EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = verbs.register(ByteBuffer.allocateDirect(size), Set.of());
        write = new WriteRequest().gather(source.slice(0, size)).target(target.remote());
    }

    /** Post, then poll until the completion comes (it does on the posting thread, inline). */
    @Benchmark
    public int writeAndPoll() throws IOException {
        verbs.post(write);
        int polled;
        while ((polled = verbs.completions().poll(check, 1)) == 0) {
            Thread.onSpinWait();
        }
        return polled;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        pair.close();
    }
}

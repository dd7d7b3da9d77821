package io.extsock.examples;

import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A file memory-mapped and registered with a connection, for one-sided RDMA straight from or
 * into the page cache (no copy in user space). A MappedByteBuffer holds at most 2 GiB, so a
 * larger file is several mappings, each its own region; they are registered in order.
 */
final class MappedFile implements AutoCloseable {

    /** Bytes per mapping and region: 1 GiB, under the 2 GiB limit and easy to reason about. */
    static final long SEGMENT = 1L << 30;

    private final List<MemoryRegion> regions = new ArrayList<>();

    private MappedFile() {
    }

    /** Maps all of {@code channel} ({@code length} bytes) and registers each piece with {@code access}. */
    static MappedFile register(IwarpConnection verbs, FileChannel channel, long length, boolean writable,
                               Set<Access> access) throws IOException {
        MappedFile file = new MappedFile();
        try {
            FileChannel.MapMode mode = writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY;
            for (long position = 0; position < length; position += SEGMENT) {
                MappedByteBuffer mapping = channel.map(mode, position, Math.min(SEGMENT, length - position));
                file.regions.add(verbs.register(mapping, access));
            }
            return file;
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** The regions, in file order; each but the last is {@link #SEGMENT} bytes long. */
    List<MemoryRegion> regions() {
        return regions;
    }

    /** Deregisters every region (the peer loses access at once); the mappings go with the GC. */
    @Override
    public void close() {
        regions.forEach(MemoryRegion::close);
    }
}

package io.extsock.core.verbs;

import io.extsock.verbs.Access;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;

/**
 * Run in a child JVM by {@link PinningRefusalTest}: tries to pin a region of the given size,
 * prints what happened, then shows that unpinned registration still works.
 */
public final class PinningProbe {

    private PinningProbe() {
    }

    public static void main(String[] args) throws IOException {
        int size = Integer.parseInt(args[0]);
        MemoryRegistry registry = new MemoryRegistry();
        try {
            RegisteredRegion pinned = registry.register(ByteBuffer.allocateDirect(size),
                    EnumSet.of(Access.LOCAL_WRITE), true);
            System.out.println("PINNED " + pinned);
        } catch (IOException e) {
            System.out.println("REFUSED " + e.getMessage());
        }
        RegisteredRegion plain = registry.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.REMOTE_READ),
                false);
        System.out.println("UNPINNED " + (registry.lookup(plain.stag()) == plain ? "works" : "broken"));
    }
}

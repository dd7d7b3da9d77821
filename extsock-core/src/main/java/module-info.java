/** The software iWARP provider: MPA, DDP and RDMAP codecs, verbs and the progress engine. */
@SuppressWarnings("requires-automatic") // jnr-ffi ships no module-info, only an Automatic-Module-Name
module io.extsock.core {
    requires io.extsock.api;
    // Flight Recorder events (io.extsock.core.events)
    requires jdk.jfr;
    // The JVM's -XX:MaxDirectMemorySize, for the default memory budget (io.extsock.core.memory);
    // optional: without it the budget assumes the JVM's default for that limit.
    requires static java.management;
    // sun.misc.Unsafe.invokeCleaner: the direct memory of closed connections the pool does not
    // keep is freed at once (io.extsock.core.memory); optional: without it the GC frees it.
    requires static jdk.unsupported;
    // mlock/munlock/getrlimit for pinned memory regions (io.extsock.core.verbs.JnrNativeMemory),
    // optional: only registerPinned loads it. Present at run time only if the application adds it
    // (--add-modules org.jnrproject.ffi on the module path).
    requires static org.jnrproject.ffi;
    // jnr-ffi generates its bindings with ASM; as an automatic module it cannot require it itself.
    requires static org.objectweb.asm;
    requires static org.objectweb.asm.commons;
    requires static org.objectweb.asm.tree;
    requires static org.objectweb.asm.tree.analysis;
    requires static org.objectweb.asm.util;

    // jnr-ffi's generated binding (in an unnamed module) implements the interface in here.
    exports io.extsock.core.nativecall;

    provides io.extsock.spi.IwarpProvider with io.extsock.core.engine.SoftwareIwarpProvider;
}

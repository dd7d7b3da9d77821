/** The extsock command line. */
module io.extsock.examples {
    requires io.extsock.api;
    requires info.picocli;
    // --jfr FILE: a Flight Recorder recording of the run
    requires jdk.jfr;

    opens io.extsock.examples.cli to info.picocli;
    opens io.extsock.examples.demo to info.picocli;
    opens io.extsock.examples.echo to info.picocli;
    opens io.extsock.examples.file to info.picocli;
    opens io.extsock.examples.perf to info.picocli;
    opens io.extsock.examples.rping to info.picocli;
}

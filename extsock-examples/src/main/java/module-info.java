/** The extsock command line. */
module io.extsock.examples {
    requires io.extsock.api;
    requires info.picocli;
    // --jfr FILE: a Flight Recorder recording of the run
    requires jdk.jfr;

    opens io.extsock.examples to info.picocli;
}

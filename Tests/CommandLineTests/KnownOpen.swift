/// Battery cases still failing, by name. Empty since issue 9's last fixes (config
/// locations, run's memory check, repro-manifest lines). The battery still checks the list:
/// a known-open case that passes fails the test until it is removed here, so a case added
/// here for a newly found defect must come out when the defect is fixed.
enum KnownOpen {
    static let cases: Set<String> = []
}

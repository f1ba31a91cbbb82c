import FoundationEssentials

/// Whether every call takes the whole attempt loop, even where the plain call may leave a step out.
///
/// A plain call (no observers, no retry rules, no error handlers, no interceptors, no cookie jar, no cache)
/// goes straight to the transport (`Session.collectStraight`): no attempt loop, no records, no context, and
/// the redirect wrapper only once a 3xx arrives; a call that is not plain still leaves out the steps that
/// have nothing to do (the observed loop, the check before an attempt, adapting the request, the error
/// handlers). Each of those steps does nothing for such a call, so leaving it out must change nothing a
/// caller can see. With `BRICKREQUEST_FULL_PATH` set in the environment (to any
/// value), every session takes every step, and `make sanitize` runs the whole suite under ThreadSanitizer
/// that way, so that the suite proves both paths give the same answers.
enum FullPath {
    /// Read once per process.
    static let isForced = ProcessInfo.processInfo.environment["BRICKREQUEST_FULL_PATH"] != nil
}

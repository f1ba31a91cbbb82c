import BrickTransport
import CCurl
import CCurlShim

/// Calls the shim's setters and remembers the first option libcurl refused.
struct OptionSetter {
    let handle: UnsafeMutableRawPointer
    var failure: (option: CURLoption, code: CURLcode)?

    mutating func long(_ option: CURLoption, _ value: Int) {
        record(option, brick_easy_setopt_long(handle, option, value))
    }
    mutating func offset(_ option: CURLoption, _ value: Int64) {
        record(option, brick_easy_setopt_off(handle, option, curl_off_t(value)))
    }
    mutating func string(_ option: CURLoption, _ value: String?) {
        record(option, brick_easy_setopt_string(handle, option, value))
    }
    mutating func pointer(_ option: CURLoption, _ value: UnsafeRawPointer?) {
        record(option, brick_easy_setopt_pointer(handle, option, UnsafeMutableRawPointer(mutating: value)))
    }
    mutating func pointer(_ option: CURLoption, _ value: UnsafeMutablePointer<curl_slist>?) {
        record(option, brick_easy_setopt_pointer(handle, option, UnsafeMutableRawPointer(value)))
    }
    mutating func seek(_ callback: brick_seek_callback) {
        record(CURLOPT_SEEKFUNCTION, brick_easy_setopt_seek_callback(handle, callback))
    }
    mutating func progress(_ callback: brick_progress_callback) {
        record(CURLOPT_XFERINFOFUNCTION, brick_easy_setopt_progress_callback(handle, callback))
    }
    mutating func prerequest(_ callback: brick_prereq_callback) {
        record(CURLOPT_PREREQFUNCTION, brick_easy_setopt_prereq_callback(handle, callback))
    }
    mutating func openSocket(_ callback: brick_opensocket_callback) {
        record(CURLOPT_OPENSOCKETFUNCTION, brick_easy_setopt_opensocket_callback(handle, callback))
    }
    mutating func callback(_ option: CURLoption, _ callback: brick_data_callback) {
        record(option, brick_easy_setopt_data_callback(handle, option, callback))
    }
    private mutating func record(_ option: CURLoption, _ code: CURLcode) {
        if code != CURLE_OK && failure == nil { failure = (option, code) }
    }
}

extension Duration {
    /// Whole milliseconds, saturating at `Int.max`.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : Int(millis) + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// The duration as a libcurl millisecond limit: at least 1 (libcurl reads 0 as "no limit", so a
    /// sub-millisecond limit must not become none) and at most `Int32.max` (what every platform's `long`
    /// and libcurl's arithmetic on it hold).
    var curlMilliseconds: Int { Swift.min(Swift.max(1, milliseconds), Int(Int32.max)) }

    /// The duration as a libcurl limit in whole seconds, rounded up, between 1 and `Int32.max`.
    var curlSeconds: Int {
        let millis = Swift.min(Swift.max(1, milliseconds), Int(Int32.max) * 1000)
        return millis / 1000 + (millis % 1000 == 0 ? 0 : 1)
    }
}

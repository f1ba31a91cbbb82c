/// Joins a base URL and a path the way API clients expect.
enum URLResolution {
    /// `path` when it is an absolute URL (it has a scheme) or there is no base; otherwise the base and the
    /// path joined with exactly one slash.
    static func resolve(_ path: String, against base: String?) -> String {
        guard let base, !base.isEmpty, !isAbsolute(path) else { return path }
        guard !path.isEmpty else { return base }
        switch (base.hasSuffix("/"), path.hasPrefix("/")) {
        case (true, true): return base + path.dropFirst()
        case (false, false): return base + "/" + path
        default: return base + path
        }
    }

    /// Whether `string` starts with a URL scheme followed by `://`.
    static func isAbsolute(_ string: String) -> Bool {
        guard let colon = string.firstIndex(of: ":") else { return false }
        let scheme = string[..<colon]
        return !scheme.isEmpty && string[colon...].hasPrefix("://")
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }
}

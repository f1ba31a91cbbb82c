/// What a kept handle's last request left set on it: its parsed URL and its header list. libcurl keeps every
/// option until it is set again, so the next request of the same ``HandleProfile`` sets each of these only
/// when its own differs (a client calling one endpoint again and again sets neither). Both stay alive for as
/// long as the handle may point at them.
struct KeptRequestValues {
    /// Whether the handle served a transfer before (else nothing is set on it yet).
    let isKept: Bool
    let url: ParsedURL?
    let headerList: HeaderList?

    /// A new handle's: nothing set.
    static var none: KeptRequestValues { KeptRequestValues(isKept: false, url: nil, headerList: nil) }

    init(url: ParsedURL?, headerList: HeaderList?) {
        self.init(isKept: true, url: url, headerList: headerList)
    }

    private init(isKept: Bool, url: ParsedURL?, headerList: HeaderList?) {
        self.isKept = isKept
        self.url = url
        self.headerList = headerList
    }
}

/// Easy handles whose transfers ended well, kept for the next transfer of the same ``HandleProfile``
/// (engine thread only). Making a handle and setting its two dozen standing options cost more than the rest
/// of libcurl's work for a small request on a kept-alive connection; a kept handle needs only the options
/// of its next request.
struct IdleHandles {
    private var idle: [Entry] = []

    /// One idle handle: a named struct, not a tuple, so that the list's copies are compiled for it (an array
    /// of tuples copied and removed its elements through the runtime's generic tuple witnesses).
    struct Entry {
        let handle: EasyHandle
        let profile: HandleProfile
        let values: KeptRequestValues
    }
    /// At most this many handles wait, the least recently used one freed first (each holds libcurl's receive
    /// buffer).
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        idle.reserveCapacity(self.capacity)
    }

    /// The most recently kept handle of `profile`, taken out of the idle list; `nil` when there is none.
    /// The entry is handed over whole: taken apart here, its parts were copied and the rest destroyed.
    mutating func take(matching profile: HandleProfile) -> Entry? {
        guard let index = idle.lastIndex(where: { $0.profile == profile }) else { return nil }
        return index == idle.count - 1 ? idle.removeLast() : idle.remove(at: index)
    }

    /// Keeps `handle`, which is in no multi handle, whose last transfer had `profile` and left `values` set on
    /// it (its header list stays alive with it); frees the oldest idle handle when the list is full. A handle
    /// that read its body through the read callback is freed, never kept.
    mutating func keep(_ handle: EasyHandle, profile: HandleProfile, values: KeptRequestValues) {
        guard capacity > 0, profile.body != .readThroughCallback else { return handle.destroy() }
        if idle.count == capacity { idle.removeFirst().handle.destroy() }
        handle.prepareForReuse()
        idle.append(Entry(handle: handle, profile: profile, values: values))
    }

    /// Frees every idle handle.
    mutating func drain() {
        for entry in idle { entry.handle.destroy() }
        idle.removeAll()
    }
}

/// A min-heap of deadlines, each with the id of what it belongs to: the earliest in O(1), a push or a pop in
/// O(log n). Entries whose owner has gone are left in place and skipped when they come to the top (the
/// caller says which are gone), so that removing a waiter costs nothing here; ``compact(keeping:)`` drops
/// them when they outnumber the live ones.
struct DeadlineHeap {
    private var entries: [(deadline: Duration, id: UInt64)] = []

    var count: Int { entries.count }

    mutating func push(_ deadline: Duration, _ id: UInt64) {
        entries.append((deadline, id))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest entry whose owner `isLive` says is still there; gone ones above it are dropped.
    mutating func earliest(_ isLive: (UInt64) -> Bool) -> (deadline: Duration, id: UInt64)? {
        while let top = entries.first {
            if isLive(top.id) { return top }
            popFirst()
        }
        return nil
    }

    /// Removes the earliest entry.
    mutating func popFirst() {
        guard !entries.isEmpty else { return }
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count, entries[right].deadline < entries[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Drops every entry whose owner is gone (the heap is rebuilt, in O(n)).
    mutating func compact(keeping isLive: (UInt64) -> Bool) {
        let live = entries.filter { isLive($0.id) }
        entries = []
        entries.reserveCapacity(live.count)
        for entry in live { push(entry.deadline, entry.id) }
    }
}

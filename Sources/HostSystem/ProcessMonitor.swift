import Foundation

/// Reads what the kernel reports about a running process from `/proc`: its real memory footprint,
/// peak, threads, and the processes it started.
///
/// "Real footprint" (what an iOS jetsam limit is measured against) is the memory the process alone
/// keeps resident and cannot give back without swapping: its proportional share of anonymous and
/// shared-memory pages, plus what of it is swapped out (`Pss_Anon + Pss_Shmem + SwapPss` from
/// `/proc/PID/smaps_rollup`). Not virtual size (`VmSize`: a Swift process reserves gigabytes it
/// never touches) and not `VmRSS` (which counts the clean, shared pages of libswiftCore,
/// Foundation and libc — tens of MiB the kernel can drop at any time and that iOS does not
/// charge either). Without `smaps_rollup` (kernel < 4.14) it falls back to
/// `RssAnon + RssShmem + VmSwap` from `/proc/PID/status`, which counts shared anonymous pages in
/// full. Each sample walks the process's mappings (`smaps_rollup`), tens of microseconds.
public enum ProcessMonitor {
    /// Memory figures for one process, in bytes.
    public struct MemoryUsage: Hashable, Sendable {
        /// Where ``footprintBytes`` came from.
        public enum Source: Hashable, Sendable {
            /// `Pss_Anon + Pss_Shmem + SwapPss` from `smaps_rollup`.
            case proportionalAnonymous
            /// `RssAnon + RssShmem + VmSwap` from `status`.
            case residentAnonymous
        }
        /// The real footprint (see ``ProcessMonitor``).
        public var footprintBytes: Int
        /// How ``footprintBytes`` was computed.
        public var footprintSource: Source
        /// `VmRSS`: every resident page, shared library text included.
        public var residentBytes: Int
        /// `VmHWM`: the peak of ``residentBytes`` since the process started (kernel-tracked, so it
        /// catches spikes between samples; an upper bound for the footprint's peak).
        public var peakResidentBytes: Int
        /// `RssAnon`: resident anonymous memory.
        public var residentAnonymousBytes: Int
        /// `VmSwap`: swapped-out anonymous memory.
        public var swapBytes: Int
        /// `Pss` (proportional set size), when `smaps_rollup` was readable.
        public var proportionalBytes: Int?
        /// `Private_Dirty`, when `smaps_rollup` was readable.
        public var privateDirtyBytes: Int?
        /// `VmSize`: reserved virtual address space (for reports only; never a limit).
        public var virtualBytes: Int
        /// `VmData`: private writable mappings, what `RLIMIT_DATA` limits.
        public var dataBytes: Int = 0
    }

    /// One look at a process.
    public struct Sample: Hashable, Sendable {
        /// Its memory.
        public var memory: MemoryUsage
        /// `Threads` from `status`.
        public var threadCount: Int
    }

    /// Samples `pid`'s memory and thread count.
    /// - Throws: ``Errno`` (`.noSuchFileOrDirectory` once the process has been reaped,
    ///   `.permissionDenied` for another user's process).
    public static func sample(_ pid: ProcessID) throws(Errno) -> Sample {
        try sample(pid, readingRollup: true)
    }

    /// Samples `pid`; without `readingRollup` only `status` is read (constant time for the kernel),
    /// and ``MemoryUsage/footprintBytes`` is its upper bound `RssAnon + RssShmem + VmSwap`
    /// (source ``MemoryUsage/Source/residentAnonymous``) — `smaps_rollup` walks every page table
    /// the process maps, about a millisecond for a process that maps a 100 MB program.
    /// - Throws: as ``sample(_:)``.
    public static func sample(_ pid: ProcessID, readingRollup: Bool) throws(Errno) -> Sample {
        // Read as bytes and only the keys used: the watchdog samples every 10 ms for the whole run,
        // and building a dictionary of every line cost the host a third of its time in a small share.
        let status = fields(
            try readProcBytes("/proc/\(pid)/status"),
            ["RssAnon", "RssShmem", "VmSwap", "VmRSS", "VmHWM", "VmSize", "VmData", "Threads"])
        func kib(_ index: Int) -> Int { (status[index] ?? 0) * 1024 }
        var memory = MemoryUsage(
            footprintBytes: kib(0) + kib(1) + kib(2), footprintSource: .residentAnonymous,
            residentBytes: kib(3), peakResidentBytes: kib(4), residentAnonymousBytes: kib(0),
            swapBytes: kib(2), proportionalBytes: nil, privateDirtyBytes: nil, virtualBytes: kib(5),
            dataBytes: kib(6))
        if readingRollup, let rollupBytes = try? readProcBytes("/proc/\(pid)/smaps_rollup") {
            let rollup = fields(rollupBytes, ["Pss_Anon", "Pss_Shmem", "SwapPss", "Pss", "Private_Dirty"])
            if let anon = rollup[0] {
                memory.footprintBytes = (anon + (rollup[1] ?? 0) + (rollup[2] ?? 0)) * 1024
                memory.footprintSource = .proportionalAnonymous
            }
            memory.proportionalBytes = rollup[3].map { $0 * 1024 }
            memory.privateDirtyBytes = rollup[4].map { $0 * 1024 }
        }
        return Sample(memory: memory, threadCount: status[7] ?? 0)
    }

    /// Live processes whose parent is `pid` (scans `/proc/*/stat`; the kernel here has no
    /// `/proc/PID/task/TID/children`).
    public static func children(of pid: ProcessID) -> [ProcessID] {
        processes { $0.parent == pid }
    }

    /// Live processes descended from `pid` (children, their children, …), from one scan of
    /// `/proc`; `pid` itself is not included. A process that left the tree by being orphaned
    /// (reparented to init) is no longer counted.
    public static func descendants(of pid: ProcessID) -> [ProcessID] {
        var byParent: [ProcessID: [ProcessID]] = [:]
        _ = processes { line in
            byParent[line.parent, default: []].append(line.pid)
            return false
        }
        var found: [ProcessID] = []
        var pending = [pid]
        while let next = pending.popLast() {
            for child in byParent[next] ?? [] where !found.contains(child) {
                found.append(child)
                pending.append(child)
            }
        }
        return found.sorted { $0.rawValue < $1.rawValue }
    }

    /// Live processes in the process group `group` (the leader included while it is alive).
    public static func members(ofProcessGroup group: ProcessID) -> [ProcessID] {
        processes { $0.group == group }
    }

    // MARK: - Parsing

    private struct StatLine {
        var pid: ProcessID
        var state: Character
        var parent: ProcessID
        var group: ProcessID
    }

    private static func processes(where matches: (StatLine) -> Bool) -> [ProcessID] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> ProcessID? in
            guard name.first?.isNumber == true, let text = try? readProcFile("/proc/\(name)/stat"),
                let line = parseStat(text), line.state != "Z", matches(line)
            else { return nil }
            return line.pid
        }.sorted { $0.rawValue < $1.rawValue }
    }

    /// `pid (comm) state ppid pgrp …`; `comm` may hold spaces and parentheses, so split after the last `)`.
    private static func parseStat(_ text: String) -> StatLine? {
        guard let close = text.lastIndex(of: ")"), let pid = CInt(text.prefix { $0 != " " }) else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ")
        guard rest.count >= 3, let state = rest[0].first, let parent = CInt(rest[1]), let group = CInt(rest[2]) else {
            return nil
        }
        return StatLine(
            pid: ProcessID(rawValue: pid), state: state, parent: ProcessID(rawValue: parent),
            group: ProcessID(rawValue: group))
    }

    /// The first number on the `Key:   123 kB` line of each of `keys`, in their order (nil: no such
    /// line, or no number on it). The first line of a key counts.
    package static func fields(_ bytes: [UInt8], _ keys: [StaticString]) -> [Int?] {
        var result = [Int?](repeating: nil, count: keys.count)
        var lineStart = 0
        let colon = UInt8(ascii: ":")
        let newline = UInt8(ascii: "\n")
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != newline { lineEnd += 1 }
            var keyEnd = lineStart
            while keyEnd < lineEnd && bytes[keyEnd] != colon { keyEnd += 1 }
            if keyEnd < lineEnd,
                let index = keys.indices.first(where: {
                    result[$0] == nil && matches(keys[$0], bytes[lineStart..<keyEnd])
                })
            {
                var cursor = keyEnd + 1
                while cursor < lineEnd && (bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t")) {
                    cursor += 1
                }
                var value = 0
                var digits = 0
                while cursor < lineEnd, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9"),
                    digits < 18
                {
                    value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    digits += 1
                    cursor += 1
                }
                // A number is the whole word: "12kB" or "-3" is not one.
                let wordEnds =
                    cursor == lineEnd || bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t")
                if digits > 0 && wordEnds { result[index] = value }
            }
            lineStart = lineEnd + 1
        }
        return result
    }

    private static func matches(_ key: StaticString, _ bytes: ArraySlice<UInt8>) -> Bool {
        guard key.utf8CodeUnitCount == bytes.count else { return false }
        return key.withUTF8Buffer { $0.elementsEqual(bytes) }
    }

    private static func readProcBytes(_ path: String) throws(Errno) -> [UInt8] {
        let descriptor = try FileDescriptor.open(path)
        defer { try? descriptor.close() }
        return try descriptor.readAll(limit: 1 << 20)
    }

    private static func readProcFile(_ path: String) throws(Errno) -> String {
        let descriptor = try FileDescriptor.open(path)
        defer { try? descriptor.close() }
        return String(decoding: try descriptor.readAll(limit: 1 << 20), as: UTF8.self)
    }
}

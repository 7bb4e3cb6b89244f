import AppGroups
import Foundation
import Testing

struct StoreTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesTheStandardVectors(input: String, digest: String) {
        #expect(SHA256.hex(of: Array(input.utf8)) == digest)
    }

    @Test func sha256IsTheSameWhateverTheChunking() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var hash = SHA256()
        for chunk in stride(from: 0, to: bytes.count, by: 61) {
            hash.update(bytes[chunk..<min(chunk + 61, bytes.count)])
        }
        #expect(SHA256.hexString(hash.finalize()) == SHA256.hex(of: bytes))
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func sha256OfAMillionAsAndACopiedHashIsIndependent() {
        var hash = SHA256()
        hash.update([UInt8](repeating: UInt8(ascii: "a"), count: 500_000))
        var copy = hash  // a value: finishing one must not disturb the other
        hash.update([UInt8](repeating: UInt8(ascii: "a"), count: 500_000))
        copy.update([UInt8](repeating: UInt8(ascii: "a"), count: 500_000))
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hexString(hash.finalize()) == expected)
        #expect(SHA256.hexString(copy.finalize()) == expected)
    }

    @Test func commitsAreJournaledVerifiedAndReadFromACursor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let first = try store.commit(name: "note.txt", typeIdentifier: "public.plain-text", bytes: Array("hello".utf8))
        let a = try store.makeEntry(name: "a", typeIdentifier: "public.data")
        let b = try store.makeEntry(name: "b", typeIdentifier: "public.data")
        try a.write([1, 2, 3])
        try b.write([4])
        let batch = try store.commit([a, b])
        #expect(first.sequence == 1 && batch.map(\.sequence) == [2, 3])
        #expect(first.sha256 == SHA256.hex(of: Array("hello".utf8)))
        #expect(first.source == "com.example.carddrop.Share")
        #expect(try store.verify().isClean)

        let inbox = try AppGroupInbox(group: try scratch.groupID(), app: try scratch.appIdentity(), root: scratch.root)
        #expect(try inbox.pending().map(\.entry.sequence) == [1, 2, 3])
        try inbox.consume(through: 2)
        #expect(try inbox.pending().map(\.entry.name) == ["b"])
        #expect(try Data(contentsOf: try inbox.pending()[0].url) == Data([4]))
        #expect(inbox.appContainer.url.path.contains("Data/Application"))
    }

    @Test func aLargeBatchIsSyncedOnceAndCommittedWhole() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let count = AppGroupStore.batchSyncThreshold * 3
        var writers: [EntryWriter] = []
        for index in 0..<count {
            let writer = try store.makeEntry(name: "f\(index).bin", typeIdentifier: "public.data")
            try writer.write(Array(repeating: UInt8(index), count: 100 + index))
            writers.append(writer)
        }
        let entries = try store.commit(writers)
        #expect(entries.map(\.sequence) == Array(1...count))
        #expect(entries.map(\.size) == (0..<count).map { Int64(100 + $0) })
        #expect(try store.verify().isClean)
        let inbox = try AppGroupInbox(group: try scratch.groupID(), app: try scratch.appIdentity(), root: scratch.root)
        let last = try inbox.pending()[count - 1]
        #expect(try Data(contentsOf: last.url) == Data(repeating: UInt8(count - 1), count: 100 + count - 1))
    }

    @Test func aGeneratedInboxNameTakenMeanwhileIsDrawnAgain() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let writer = try store.makeEntry(name: "tiny.txt", typeIdentifier: "public.plain-text")
        try writer.write(Array("mine".utf8))
        let drawn = writer.path
        // Another entry takes exactly that path first (what a 32-bit tag collision does).
        _ = try store.commit(name: "other", typeIdentifier: "public.data", bytes: [1], path: drawn)
        let committed = try store.commit([writer])[0]
        #expect(committed.path != drawn)
        #expect(committed.path.description.hasSuffix("-tiny.txt"))
        #expect(try store.verify().isClean)
        // An explicit path is never redrawn.
        let explicit = try store.makeEntry(name: "again", typeIdentifier: "public.data", path: drawn)
        try explicit.write([2])
        #expect(throws: AppGroupError.self) { try store.commit([explicit]) }
    }

    @Test func recoveryCutsATornTailRemovesTemporariesAndQuarantinesOrphans() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        var store = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        try store.commit(name: "kept", typeIdentifier: "public.data", bytes: [9, 9])
        let container = store.container.url
        // Simulate a crash: a torn record, a stray temporary and a durable file never journaled.
        let journal = try FileHandle(forWritingTo: container.appendingPathComponent(".exthost/journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data([40, 0, 0, 0, 1, 2, 3, 4, 5]))
        try journal.close()
        try Data([1]).write(to: container.appendingPathComponent("Inbox/.tmp-deadbeef"))
        try Data([2]).write(to: container.appendingPathComponent("Inbox/0000-orphan"))
        // …left by a writer that died: its marker stays, and nobody holds its lock.
        try FileManager.default.createDirectory(
            at: container.appendingPathComponent(".exthost/writers"), withIntermediateDirectories: true)
        try Data().write(to: container.appendingPathComponent(".exthost/writers/0dead"))

        let before = try AppGroupStore.inspect(group, root: scratch.root).verify()
        #expect(Set(before.problems.map(\.kind)) == [.tornJournalTail, .leftoverTemporaryFile, .orphanFile])

        // The app's inbox only reads: it lists the whole records and leaves the repair to a writer.
        let inbox = try AppGroupInbox(group: group, app: try scratch.appIdentity(), root: scratch.root)
        #expect(try inbox.pending().map(\.entry.name) == ["kept"])
        #expect(inbox.store.lastRecovery.isEmpty)
        let unrepaired = try AppGroupStore.inspect(group, root: scratch.root).verify()
        #expect(Set(unrepaired.problems.map(\.kind)) == [.tornJournalTail, .leftoverTemporaryFile, .orphanFile])

        store = try AppGroupStore.open(group, as: try scratch.appIdentity(), root: scratch.root)
        let report = store.lastRecovery
        #expect(report.truncatedJournalBytes == 9)
        #expect(report.removedTemporaryFiles == ["Inbox/.tmp-deadbeef"])
        #expect(report.quarantinedFiles.map(\.from) == ["Inbox/0000-orphan"])
        #expect(try store.verify().isClean)
        #expect(try store.entries().map(\.name) == ["kept"])
        #expect(
            !FileManager.default.fileExists(atPath: container.appendingPathComponent(".exthost/writers/0dead").path))
    }

    @Test func anOpenAfterCleanExitsChecksOnlyTheJournalAndAThoroughRecoveryStillFindsAPlantedOrphan() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        let store = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        let container = store.container.url
        let writers = container.appendingPathComponent(".exthost/writers")
        // A writer's marker exists while it has staged files in flight, and it is held: another
        // open does not take it for a dead one.
        let staged = try store.makeEntry(name: "kept", typeIdentifier: "public.data")
        try staged.write([9, 9])
        #expect(try FileManager.default.contentsOfDirectory(atPath: writers.path).count == 1)
        let other = try AppGroupStore.open(group, as: try scratch.appIdentity(), root: scratch.root)
        #expect(other.lastRecovery.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: writers.path).count == 1)
        try store.commit([staged])  // nothing in flight any more: the marker goes
        #expect(try FileManager.default.contentsOfDirectory(atPath: writers.path).isEmpty)

        // A file nobody committed, with no writer dead: an open leaves it (it does not walk the
        // container); verify reports it and a thorough recovery quarantines it.
        try Data([2]).write(to: container.appendingPathComponent("Inbox/0000-planted"))
        let reopened = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        #expect(reopened.lastRecovery.isEmpty)
        #expect(try reopened.verify().problems.map(\.kind) == [.orphanFile])
        #expect(try reopened.recover().quarantinedFiles.map(\.from) == ["Inbox/0000-planted"])
        #expect(try reopened.verify().isClean)
    }

    @Test func aStoreOpensFromAKnownContainerURLOnlyForItsGroup() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let identity = try scratch.extensionIdentity()
        let info = try scratch.root.groupContainer(try scratch.groupID(), as: identity)
        let store = try AppGroupStore.open(
            try scratch.groupID(), containerAt: info.url, as: identity, root: scratch.root)
        try store.commit(name: "x", typeIdentifier: "public.data", bytes: [1])
        let plugin = try scratch.root.dataContainer(for: identity)
        let error = try #require(throws: AppGroupError.self) {
            try AppGroupStore.open(try scratch.groupID(), containerAt: plugin.url, as: identity, root: scratch.root)
        }
        #expect(error.code == .corrupt && error.message.contains("com.example.carddrop.Share"))
    }

    @Test func aWriterThatRetainsNoEntriesNumbersListsAndVerifiesAsTheOthers() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let identity = try scratch.extensionIdentity()
        let group = try scratch.groupID()
        let info = try scratch.root.groupContainer(group, as: identity)
        let other = try AppGroupStore.open(group, as: identity, root: scratch.root)
        try other.commit(name: "first", typeIdentifier: "public.data", bytes: [1])
        let writer = try AppGroupStore.open(
            group, containerAt: info.url, as: identity, root: scratch.root, retainingEntries: false)
        try writer.commit(name: "second", typeIdentifier: "public.data", bytes: [2])
        try other.commit(name: "third", typeIdentifier: "public.data", bytes: [3])
        try writer.commit(name: "fourth", typeIdentifier: "public.data", bytes: [4])
        #expect(try writer.entries().map(\.sequence) == [1, 2, 3, 4])
        #expect(try writer.entries(after: 2).map(\.name) == ["third", "fourth"])
        #expect(try other.entries().map(\.name) == ["first", "second", "third", "fourth"])
        let report = try writer.verify()
        #expect(report.isClean && report.entryCount == 4)
    }

    @Test func verifyFindsAChangedFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let entry = try store.commit(name: "x", typeIdentifier: "public.data", bytes: [1, 2, 3])
        try Data([1, 2, 4]).write(to: store.url(for: entry))
        #expect(try store.verify().problems.map(\.kind) == [.checksumMismatch])
        try Data([1]).write(to: store.url(for: entry))
        #expect(try store.verify().problems.map(\.kind) == [.sizeMismatch])
    }

    @Test func defaultsRoundTripAsABinaryPlist() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let defaults = try store.defaults()
        try defaults.set(.string("blue"), forKey: "color")
        try defaults.set(.integer(3), forKey: "count")
        try defaults.set(.array([.bool(true), .real(1.5)]), forKey: "list")
        #expect(try defaults.value(forKey: "color") == .string("blue"))
        #expect(try defaults.removeValue(forKey: "count"))
        #expect(try defaults.dictionary().keys.sorted() == ["color", "list"])
        let raw = try Data(contentsOf: defaults.fileURL)
        #expect(raw.starts(with: Array("bplist00".utf8)))
        #expect(defaults.fileURL.path.hasSuffix("Library/Preferences/\(Scratch.group).plist"))
        #expect(try defaults.xml().contains("<string>blue</string>"))
    }

    @Test func anUnentitledSuiteIsPrivateButStillUsable() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let other = "group.com.example.other"
        let app = try scratch.appIdentity()
        let mine = try SharedDefaults.suite(named: other, as: app, root: scratch.root)
        try mine.set(.bool(true), forKey: "seen")
        #expect(mine.fileURL.path.contains("Data/Application"))
        #expect(scratch.root.existingContainer(.appGroup, identifier: other) == nil)
        let shared = try SharedDefaults.suite(named: Scratch.group, as: app, root: scratch.root)
        try shared.set(.integer(1), forKey: "n")
        let seenByExtension = try SharedDefaults.suite(
            named: Scratch.group, as: try scratch.extensionIdentity(), root: scratch.root)
        #expect(try seenByExtension.value(forKey: "n") == .integer(1))
    }

    @Test func aPostWakesAnObserverAndSilenceTimesOut() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bell = DarwinNotification(root: scratch.root, name: "com.example.bell")
        let observer = try bell.observe()
        defer { observer.close() }
        #expect(try observer.wait(timeout: 0.05) == false)
        try bell.post()
        #expect(try observer.wait(timeout: 2))
        #expect(try bell.count() == 1)
    }
}

/// The journal checkpoint: a writer's open checks only what was appended since the last commit.
struct JournalCheckpointTests {
    @Test func aWriterReopensFromTheCheckpointCutsATornTailAfterItAndIgnoresABadOne() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        let identity = try scratch.extensionIdentity()
        func writer() throws -> AppGroupStore {
            let url = try scratch.root.groupContainer(group, as: identity).url
            return try AppGroupStore.open(
                group, containerAt: url, as: identity, root: scratch.root, retainingEntries: false)
        }
        let first = try writer()
        for index in 0..<30 {
            try first.commit(name: "n\(index)", typeIdentifier: "public.data", bytes: [UInt8(index)])
        }
        let container = first.container.url
        let checkpoint = container.appendingPathComponent(".exthost/journal.checkpoint")
        #expect(try Data(contentsOf: checkpoint).count == 56)

        // From the checkpoint: the next entry is numbered on, and records before it are not read
        // again (a byte changed in the first record goes unnoticed by an open; verify finds it).
        let journalURL = container.appendingPathComponent(".exthost/journal")
        var journalBytes = try Data(contentsOf: journalURL)
        let original = journalBytes[60]
        journalBytes[60] ^= 0xFF
        try journalBytes.write(to: journalURL)
        let fromCheckpoint = try writer()
        #expect(fromCheckpoint.lastRecovery.truncatedJournalBytes == 0)
        let problems = try fromCheckpoint.verify().problems
        // verify reads every record: the damage, and the 30 files no whole record before it names.
        #expect(problems.first?.kind == .tornJournalTail && problems.filter { $0.kind == .orphanFile }.count == 30)
        journalBytes[60] = original
        try journalBytes.write(to: journalURL)
        #expect(try writer().commit(name: "next", typeIdentifier: "public.data", bytes: [1]).sequence == 31)

        // A torn record after the checkpoint is cut by the next writer's open.
        let journal = try FileHandle(forWritingTo: container.appendingPathComponent(".exthost/journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data([40, 0, 0, 0, 1, 2, 3]))
        try journal.close()
        #expect(try writer().lastRecovery.truncatedJournalBytes == 7)

        // A damaged checkpoint is not trusted: the journal is read from its start.
        try Data(repeating: 0xAB, count: 56).write(to: checkpoint)
        let reopened = try writer()
        #expect(try reopened.commit(name: "after", typeIdentifier: "public.data", bytes: [2]).sequence == 32)
        #expect(try reopened.verify().isClean)
        #expect(try reopened.entries().count == 32)
    }
}

/// Listing from the journal one record at a time.
struct StreamedListingTests {
    @Test func forEachEntryPagesAsTheRetainedListDoes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        let store = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        for index in 0..<25 {
            try store.commit(name: "n\(index)", typeIdentifier: "public.data", bytes: [UInt8(index)])
        }
        let reader = try AppGroupStore.open(
            group, as: try scratch.appIdentity(), root: scratch.root, retainingEntries: false)
        for (after, limit) in [(0, nil), (0, 10), (10, 10), (20, 10), (25, 3), (3, 0)] as [(Int, Int?)] {
            var streamed: [JournalEntry] = []
            try reader.forEachEntry(after: after, limit: limit) { streamed.append($0) }
            // Compared without committedAt: an entry read back from the journal has the time's
            // stored Double, one kept since its commit has Date's own precision.
            func key(_ entry: JournalEntry) -> String { "\(entry.sequence) \(entry.id) \(entry.path) \(entry.sha256)" }
            let retained = try store.entries(after: after, limit: limit)
            #expect(streamed.map(key) == retained.map(key), "after \(after) limit \(String(describing: limit))")
            #expect(try reader.entries(after: after, limit: limit) == streamed)
        }
        // Two marks: what was committed between them.
        let mark = try reader.mark()
        #expect(mark.sequence == 25)
        try store.commit(name: "late", typeIdentifier: "public.data", bytes: [7])
        let later = try reader.mark()
        #expect(later.journal == mark.journal && later.sequence - mark.sequence == 1 && later.offset > mark.offset)

        let inbox = try AppGroupInbox(group: group, app: try scratch.appIdentity(), root: scratch.root)
        try inbox.consume(through: 20)
        var names: [String] = []
        try inbox.forEachPending { names.append($0.entry.name) }
        #expect(names == ["n20", "n21", "n22", "n23", "n24", "late"])
    }
}

/// `makeEntry(name:typeIdentifier:movingFileAt:)`: the built-in extension's way of keeping a loaded
/// file without copying its bytes.
struct MovedEntryTests {
    @Test func aMovedFileIsCommittedHashedAndGoneFromWhereItWas() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        let store = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        let source = scratch.url.appendingPathComponent("loaded.bin")
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: source)
        let inode = try FileManager.default.attributesOfItem(atPath: source.path)[.systemFileNumber] as? Int
        let writer = try #require(
            try store.makeEntry(name: "loaded.bin", typeIdentifier: "public.data", movingFileAt: source))
        #expect(!FileManager.default.fileExists(atPath: source.path))
        #expect(try writer.size() == Int64(bytes.count))

        // Staged and locked: a recovery meanwhile (another process opening the group) keeps it.
        let other = try AppGroupStore.open(group, as: try scratch.appIdentity(), root: scratch.root)
        #expect(other.lastRecovery.removedTemporaryFiles.isEmpty)

        let entry = try #require(try store.commit([writer]).first)
        #expect(entry.sha256 == SHA256.hex(of: bytes) && entry.size == Int64(bytes.count))
        let committed = store.container.url.appendingPathComponent(entry.path.description)
        #expect(try Data(contentsOf: committed) == Data(bytes))
        // The same file, renamed: its bytes were not copied.
        #expect(try FileManager.default.attributesOfItem(atPath: committed.path)[.systemFileNumber] as? Int == inode)
        #expect(try store.verify().isClean)
    }

    @Test func aFileWithAnotherLinkOrASymbolicLinkIsNotMovedAndStaysWhereItIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let source = scratch.url.appendingPathComponent("shared.bin")
        try Data([1, 2, 3]).write(to: source)
        let link = scratch.url.appendingPathComponent("elsewhere.bin")
        try FileManager.default.linkItem(at: source, to: link)
        #expect(try store.makeEntry(name: "shared.bin", typeIdentifier: "public.data", movingFileAt: source) == nil)
        #expect(FileManager.default.fileExists(atPath: source.path))

        let symbolic = scratch.url.appendingPathComponent("pointer.bin")
        try FileManager.default.createSymbolicLink(at: symbolic, withDestinationURL: source)
        #expect(try store.makeEntry(name: "pointer.bin", typeIdentifier: "public.data", movingFileAt: symbolic) == nil)
        #expect(FileManager.default.fileExists(atPath: symbolic.path))

        let missing = scratch.url.appendingPathComponent("missing.bin")
        #expect(throws: AppGroupError.self) {
            try store.makeEntry(name: "missing.bin", typeIdentifier: "public.data", movingFileAt: missing)
        }
        #expect(try store.entries().isEmpty)
    }
}

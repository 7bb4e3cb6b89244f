import HostSystem

extension ContainerDirectory {
    /// Calls `body` for every entry under `start` (the whole container when nil), depth first,
    /// never following symbolic links; directories named in `skipping` (top-level names) are not
    /// entered.
    /// - Throws: ``AppGroupError``, or what `body` throws.
    func walk(
        from start: ContainerPath? = nil, skipping: Set<String> = [],
        _ body: (ContainerPath, FileStatus.Kind) throws -> Void
    ) throws {
        var pending: [ContainerPath?] = [start]
        while let next = pending.popLast() {
            let entries: [DirectoryEntry]
            do {
                entries = try self.entries(in: next)
            } catch let error as AppGroupError where error.code == .notFound {
                continue
            }
            for entry in entries.sorted(by: { $0.name < $1.name }) {
                if next == nil && skipping.contains(entry.name) { continue }
                let path = try next.map { try $0.appending(entry.name) } ?? ContainerPath(entry.name)
                var kind = entry.kind
                if kind == nil { kind = try status(of: path)?.kind }
                guard let kind else { continue }
                try body(path, kind)
                if kind == .directory { pending.append(path) }
            }
        }
    }
}

import HostSystem

// The two mappings of an entry's kind: from the file system's (HostSystem's `FileStatus.Kind`)
// and to and from libarchive's `AE_IF*` file-type bits.

// libarchive's file-type constants (archive_entry.h). Swift does not import them: each macro is a
// cast, `((__LA_MODE_T)0100000)`. The values are the POSIX `S_IF*` ones on every platform.
private let AE_IFMT: UInt32 = 0o170000
private let AE_IFREG: UInt32 = 0o100000
private let AE_IFLNK: UInt32 = 0o120000
private let AE_IFSOCK: UInt32 = 0o140000
private let AE_IFCHR: UInt32 = 0o020000
private let AE_IFBLK: UInt32 = 0o060000
private let AE_IFDIR: UInt32 = 0o040000
private let AE_IFIFO: UInt32 = 0o010000

extension ArchiveEntry.Kind {
    /// The kind for a file type from the file system.
    init(_ kind: FileStatus.Kind) {
        switch kind {
        case .regular: self = .file
        case .directory: self = .directory
        case .symbolicLink: self = .symbolicLink
        case .characterDevice: self = .characterDevice
        case .blockDevice: self = .blockDevice
        case .fifo: self = .fifo
        case .socket: self = .socket
        case .other: self = .unknown
        }
    }

    /// The kind for libarchive's file type (`archive_entry_filetype`, the `AE_IFMT` bits); a hard
    /// link reads as a regular file, which the caller corrects from the link name.
    init(fileType: UInt32) {
        switch fileType & AE_IFMT {
        case AE_IFREG: self = .file
        case AE_IFDIR: self = .directory
        case AE_IFLNK: self = .symbolicLink
        case AE_IFCHR: self = .characterDevice
        case AE_IFBLK: self = .blockDevice
        case AE_IFIFO: self = .fifo
        case AE_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    /// The `AE_IF*` bits `archive_entry_set_filetype` takes for this kind (0 for ``unknown``);
    /// a hard link is written as a regular file with a link name.
    var fileType: UInt32 {
        switch self {
        case .file, .hardLink: AE_IFREG
        case .directory: AE_IFDIR
        case .symbolicLink: AE_IFLNK
        case .characterDevice: AE_IFCHR
        case .blockDevice: AE_IFBLK
        case .fifo: AE_IFIFO
        case .socket: AE_IFSOCK
        case .unknown: 0
        }
    }
}

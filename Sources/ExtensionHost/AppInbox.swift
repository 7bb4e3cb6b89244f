/// An app's `Documents/Inbox` as a device keeps it.
///
/// On iOS the system creates `Documents/Inbox` and puts there the copies Open In and AirDrop hand
/// the app; the app "can read and delete files in it but not write to them, and it cannot remove
/// the directory itself", and apps are advised to move the files out and clear it (openradar
/// rdar 27968875; Apple's AirDropSample, as summarised in the reference on ways into the app §A.3).
///
/// How exthost keeps it, and what Landlock can and cannot say:
/// - The Landlock rights a device would give the Inbox are expressible as one rule:
///   `LANDLOCK_ACCESS_FS_READ_FILE | READ_DIR | REMOVE_FILE` on the Inbox directory, with no
///   `WRITE_FILE`, `TRUNCATE`, `MAKE_REG`, `MAKE_DIR` or `REMOVE_DIR`.
/// - But Landlock rights are a union down the hierarchy: a rule on a directory grants its rights
///   to everything beneath it, and no rule takes a right away. The app must create, write and
///   remove its own files in `Documents` (a rule there with `MAKE_REG`, `WRITE_FILE`,
///   `REMOVE_DIR`…), and that rule covers `Documents/Inbox` too. So the Inbox rule narrows
///   nothing, and Landlock alone cannot keep the Inbox read-only while `Documents` is writable.
/// - exthost therefore enforces it in the seccomp broker that already checks security scopes
///   (``HostSystem/ScopeBroker``): opening a file in the Inbox for writing, creating or
///   truncating, `truncate`, `mkdir`/`link`/`symlink` in it, renaming anything into it, and
///   `rmdir` or renaming of the Inbox itself fail with `EPERM` (the error a device's sandbox
///   gives), and the app run's report lists each refusal with ``refusal``. Reading, deleting a
///   file and moving a file out work.
/// - Not enforced: writes through a descriptor the app opened before the file came (none exists
///   for a new delivery), and a file reached by a hard link made before the delivery. On a
///   machine without seccomp user notification (or with `kernelScopes` off) the Inbox is
///   writable, as before.
public enum AppInbox {
    /// The Inbox in an app's data container.
    public static let relativePath = "Documents/Inbox"

    /// The reason a refused write gives, in the app run's report.
    public static let refusal =
        "the Inbox copy is read-only: move it out first (iOS lets an app read and delete what the system puts in "
        + "Documents/Inbox, not write or create files there)"
}

// The toolchain's Swift Testing declares a cross-import overlay for UIKit (`_Testing_UIKit`, the
// image attachments of Apple platforms). On Linux the toolchain does not ship it, so a file that
// imports both Testing and exthost's UIKit would fail with "no such module '_Testing_UIKit'".
// This empty module answers that import; UIKit depends on it so it is always built beside it.

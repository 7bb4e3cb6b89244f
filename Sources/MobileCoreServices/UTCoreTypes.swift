public import Foundation

// MobileCoreServices' `kUTType…` constants, each the identifier of the type it names.

/// `public.item`.
public var kUTTypeItem: CFString { "public.item" }
/// `public.content`.
public var kUTTypeContent: CFString { "public.content" }
/// `public.composite-content`.
public var kUTTypeCompositeContent: CFString { "public.composite-content" }
/// `public.data`.
public var kUTTypeData: CFString { "public.data" }
/// `public.directory`.
public var kUTTypeDirectory: CFString { "public.directory" }
/// `public.folder`.
public var kUTTypeFolder: CFString { "public.folder" }
/// `com.apple.package`.
public var kUTTypePackage: CFString { "com.apple.package" }
/// `com.apple.bundle`.
public var kUTTypeBundle: CFString { "com.apple.bundle" }
/// `com.apple.application`.
public var kUTTypeApplication: CFString { "com.apple.application" }
/// `com.apple.application-bundle`.
public var kUTTypeApplicationBundle: CFString { "com.apple.application-bundle" }
/// `public.url`.
public var kUTTypeURL: CFString { "public.url" }
/// `public.file-url`.
public var kUTTypeFileURL: CFString { "public.file-url" }
/// `public.text`.
public var kUTTypeText: CFString { "public.text" }
/// `public.plain-text`.
public var kUTTypePlainText: CFString { "public.plain-text" }
/// `public.utf8-plain-text`.
public var kUTTypeUTF8PlainText: CFString { "public.utf8-plain-text" }
/// `public.utf16-plain-text`.
public var kUTTypeUTF16PlainText: CFString { "public.utf16-plain-text" }
/// `public.rtf`.
public var kUTTypeRTF: CFString { "public.rtf" }
/// `public.html`.
public var kUTTypeHTML: CFString { "public.html" }
/// `public.xml`.
public var kUTTypeXML: CFString { "public.xml" }
/// `public.source-code`.
public var kUTTypeSourceCode: CFString { "public.source-code" }
/// `public.json`.
public var kUTTypeJSON: CFString { "public.json" }
/// `com.apple.property-list`.
public var kUTTypePropertyList: CFString { "com.apple.property-list" }
/// `com.apple.xml-property-list`.
public var kUTTypeXMLPropertyList: CFString { "com.apple.xml-property-list" }
/// `public.image`.
public var kUTTypeImage: CFString { "public.image" }
/// `public.jpeg`.
public var kUTTypeJPEG: CFString { "public.jpeg" }
/// `public.png`.
public var kUTTypePNG: CFString { "public.png" }
/// `com.compuserve.gif`.
public var kUTTypeGIF: CFString { "com.compuserve.gif" }
/// `public.tiff`.
public var kUTTypeTIFF: CFString { "public.tiff" }
/// `com.microsoft.bmp`.
public var kUTTypeBMP: CFString { "com.microsoft.bmp" }
/// `com.apple.live-photo`.
public var kUTTypeLivePhoto: CFString { "com.apple.live-photo" }
/// `public.audiovisual-content`.
public var kUTTypeAudiovisualContent: CFString { "public.audiovisual-content" }
/// `public.movie`.
public var kUTTypeMovie: CFString { "public.movie" }
/// `public.video`.
public var kUTTypeVideo: CFString { "public.video" }
/// `public.audio`.
public var kUTTypeAudio: CFString { "public.audio" }
/// `com.apple.quicktime-movie`.
public var kUTTypeQuickTimeMovie: CFString { "com.apple.quicktime-movie" }
/// `public.mpeg`.
public var kUTTypeMPEG: CFString { "public.mpeg" }
/// `public.mpeg-4`.
public var kUTTypeMPEG4: CFString { "public.mpeg-4" }
/// `public.mp3`.
public var kUTTypeMP3: CFString { "public.mp3" }
/// `public.mpeg-4-audio`.
public var kUTTypeMPEG4Audio: CFString { "public.mpeg-4-audio" }
/// `com.adobe.pdf`.
public var kUTTypePDF: CFString { "com.adobe.pdf" }
/// `com.apple.rtfd`.
public var kUTTypeRTFD: CFString { "com.apple.rtfd" }
/// `com.apple.webarchive`.
public var kUTTypeWebArchive: CFString { "com.apple.webarchive" }
/// `public.archive`.
public var kUTTypeArchive: CFString { "public.archive" }
/// `org.gnu.gnu-zip-archive`.
public var kUTTypeGNUZipArchive: CFString { "org.gnu.gnu-zip-archive" }
/// `public.zip-archive`.
public var kUTTypeZipArchive: CFString { "public.zip-archive" }
/// `public.spreadsheet`.
public var kUTTypeSpreadsheet: CFString { "public.spreadsheet" }
/// `public.presentation`.
public var kUTTypePresentation: CFString { "public.presentation" }
/// `public.contact`.
public var kUTTypeContact: CFString { "public.contact" }
/// `public.vcard`.
public var kUTTypeVCard: CFString { "public.vcard" }
/// `public.message`.
public var kUTTypeMessage: CFString { "public.message" }
/// `public.email-message`.
public var kUTTypeEmailMessage: CFString { "public.email-message" }
/// `com.apple.internet-location`.
public var kUTTypeInternetLocation: CFString { "com.apple.internet-location" }
/// `public.font`.
public var kUTTypeFont: CFString { "public.font" }
/// `public.bookmark`.
public var kUTTypeBookmark: CFString { "public.bookmark" }
/// `public.log`.
public var kUTTypeLog: CFString { "public.log" }
/// `public.executable`.
public var kUTTypeExecutable: CFString { "public.executable" }
/// `public.unix-executable`.
public var kUTTypeUnixExecutable: CFString { "public.unix-executable" }
/// `public.volume`.
public var kUTTypeVolume: CFString { "public.volume" }
/// `public.symlink`.
public var kUTTypeSymLink: CFString { "public.symlink" }

# A type alias at the top of a module file.
type Ntp::Servers = Array[String[1]]

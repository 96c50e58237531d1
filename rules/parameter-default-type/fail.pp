class ntp (
  Array[String] $servers = 'pool.ntp.org',
  #                        ^ warning[parameter-default-type]: class 'ntp': parameter 'servers' expects an Array value, got String
  Integer $port = undef,
  #               ^ warning[parameter-default-type]: class 'ntp': parameter 'port' expects an Integer value, got Undef
  Enum['present', 'absent'] $ensure = 'installed',
  #                                   ^ warning[parameter-default-type]: class 'ntp': parameter 'ensure' expects a match for Enum['absent', 'present'], got 'installed'
  Integer[1, 65535] $max = 65535 + 1,
  #                        ^ warning[parameter-default-type]: class 'ntp': parameter 'max' expects an Integer[1, 65535] value, got Integer[65536, 65536]
  Hash[String, Integer] $limits = { 'files' => '1024' },
  #                               ^ warning[parameter-default-type]: class 'ntp': parameter 'limits' entry 'files' expects an Integer value, got String
) { }

define ntp::peer (String $key = undef) { }
#                               ^ warning[parameter-default-type]: defined type 'ntp::peer': parameter 'key' expects a String value, got Undef

type Ntp::Mode = Enum['client', 'server']
class ntp::mode (Ntp::Mode $mode = 'peer') { }
#                                  ^ warning[parameter-default-type]: class 'ntp::mode': parameter 'mode' expects a match for Ntp::Mode = Enum['client', 'server'], got 'peer'

function ntp::port(Integer $p = '123') >> Integer { $p }
#                               ^ warning[parameter-default-type]: function 'ntp::port': parameter 'p' expects an Integer value, got String

# A default read from an earlier parameter, known by its type.
class ntp::peer_port (String $service = 'ntp', Integer $port = $service) { }
#                                                              ^ warning[parameter-default-type]: class 'ntp::peer_port': parameter 'port' expects an Integer value, got String

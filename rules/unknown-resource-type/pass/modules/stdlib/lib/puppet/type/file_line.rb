# stdlib's type, cut down to what the example declares.
Puppet::Type.newtype(:file_line) do
  newparam(:name, namevar: true)
  newparam(:line)
  newparam(:path)
end

/** PUT /settings/:key: the setting's new value. */
export interface SettingValue {
  value: string;
}

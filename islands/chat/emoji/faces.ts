/** Faces, people and hands for the emoji picker, one `emoji english|português|español` a line (see emoji-data.ts). */
export const SMILEYS = `
😀 grinning smile happy|sorriso feliz|sonrisa feliz
😃 smiley happy|sorridente feliz|sonriente feliz
😄 smile laugh|sorriso risada|sonrisa risa
😁 grin beaming|sorrisão dentes|sonrisa dientes
😆 laughing|rindo gargalhada|riendo carcajada
😅 sweat smile relief|suor alívio|sudor alivio
😂 tears of joy laugh lol|chorando de rir kkk|llorando de risa jaja
🤣 rolling laughing rofl|rolando de rir|revolcarse de risa
🥲 smile tear|sorriso lágrima|sonrisa lágrima
☺️ smiling blush|sorridente corado|sonriente sonrojado
😊 blush happy smile|corado feliz|sonrojado feliz
😇 angel innocent halo|anjo inocente|ángel inocente
🙂 slight smile|sorriso leve|sonrisa leve
🙃 upside down|de cabeça para baixo|al revés
😉 wink|piscadela|guiño
😌 relieved calm|aliviado calmo|aliviado tranquilo
😍 heart eyes love|olhos de coração apaixonado|ojos de corazón enamorado
🥰 hearts love adore|corações amor|corazones amor
😘 kiss blow|beijo mandando|beso lanzando
😗 kissing|beijando|besando
😙 kissing smile|beijo sorriso|beso sonrisa
😚 kissing closed eyes|beijo olhos fechados|beso ojos cerrados
😋 yum tasty|delicioso gostoso|delicioso sabroso
😛 tongue|língua|lengua
😝 tongue squint|língua olhos fechados|lengua ojos cerrados
😜 tongue wink crazy|língua piscando|lengua guiño
🤪 zany crazy|maluco doido|loco
🤨 raised eyebrow doubt|sobrancelha levantada desconfiado|ceja levantada sospecha
🧐 monocle inspect|monóculo investigando|monóculo inspeccionar
🤓 nerd geek|nerd|nerd
😎 cool sunglasses|óculos escuros legal|gafas de sol genial
🥸 disguise|disfarce|disfraz
🤩 star struck wow|deslumbrado estrelas|deslumbrado estrellas
🥳 party celebrate|festa comemorar|fiesta celebrar
😏 smirk|sorriso malicioso|sonrisa pícara
😒 unamused|entediado desinteressado|aburrido
😞 disappointed|decepcionado|decepcionado
😔 pensive sad|pensativo triste|pensativo triste
😟 worried|preocupado|preocupado
😕 confused|confuso|confundido
🙁 frown sad|triste carrancudo|triste ceño
☹️ frowning|franzido triste|ceño fruncido
😣 persevere|perseverante|perseverante
😖 confounded|atordoado|aturdido
😫 tired|cansado|cansado
😩 weary|exausto|agotado
🥺 pleading puppy eyes please|suplicante por favor|suplicante por favor
😢 cry tear|chorando lágrima|llorando lágrima
😭 sob crying loud|chorando muito|llorando mucho
😤 triumph huff|bufando|resoplando
😠 angry|bravo zangado|enojado
😡 rage pouting angry|furioso raiva|furioso rabia
🤬 cursing swearing|xingando palavrão|maldiciendo
🤯 mind blown|cabeça explodindo|cabeza explotando
😳 flushed embarrassed|envergonhado corado|avergonzado
🥵 hot|calor quente|calor
🥶 cold freezing|frio congelando|frío helado
😱 scream fear|grito medo|grito miedo
😨 fearful|com medo|asustado
😰 anxious sweat|ansioso|ansioso
😥 sad relieved|triste aliviado|triste aliviado
😓 downcast sweat|suor frio|sudor frío
🤗 hug hugging|abraço|abrazo
🤔 thinking hmm|pensando|pensando
🫡 salute|continência saudação|saludo militar
🤭 hand over mouth oops|mão na boca ops|mano en la boca
🤫 shush quiet secret|silêncio segredo|silencio secreto
🤥 lying|mentiroso|mentiroso
😶 no mouth speechless|sem boca sem palavras|sin boca sin palabras
😐 neutral|neutro|neutral
😑 expressionless|sem expressão|inexpresivo
😬 grimace awkward|careta constrangido|mueca incómodo
🙄 eye roll|revirando os olhos|ojos en blanco
😯 hushed surprised|surpreso|sorprendido
😦 frowning open mouth|boca aberta|boca abierta
😮 open mouth wow|boca aberta uau|boca abierta guau
😲 astonished|espantado|asombrado
🥱 yawn bored|bocejo tédio|bostezo aburrido
😴 sleeping zzz|dormindo sono|durmiendo sueño
🤤 drooling|babando|babeando
😪 sleepy|sonolento|somnoliento
😵 dizzy|tonto zonzo|mareado
🤐 zipper mouth|boca fechada zíper|boca cerrada
🥴 woozy|grogue|grogui
🤢 nauseated sick|enjoado|con náuseas
🤮 vomit|vomitando|vomitando
🤧 sneeze|espirrando|estornudo
😷 mask sick|máscara doente|mascarilla enfermo
🤒 thermometer fever|febre termômetro|fiebre termómetro
🤕 bandage hurt|machucado curativo|herido vendaje
🤑 money mouth|boca de dinheiro|boca de dinero
🤠 cowboy|caubói|vaquero
😈 devil smiling|diabinho|diablillo
👿 imp angry devil|diabo bravo|diablo enojado
💀 skull dead|caveira morto|calavera muerto
💩 poop|cocô|caca
🤡 clown|palhaço|payaso
👻 ghost|fantasma|fantasma
👽 alien|alienígena|extraterrestre
🤖 robot bot|robô|robot
😺 cat smile|gato sorrindo|gato sonriendo
😹 cat joy|gato rindo|gato riendo
😻 cat heart eyes|gato apaixonado|gato enamorado
🙈 see no evil monkey|macaco não vejo|mono no ver
🙉 hear no evil monkey|macaco não ouço|mono no oír
🙊 speak no evil monkey|macaco não falo|mono no hablar
`;

export const PEOPLE = `
👍 thumbs up like ok yes|joinha positivo sim|pulgar arriba me gusta sí
👎 thumbs down dislike no|negativo não curti|pulgar abajo no me gusta
👌 ok perfect|ok perfeito|ok perfecto
🤌 pinched fingers|dedos juntos|dedos juntos
🤏 pinching small|pouquinho|pellizco poquito
✌️ victory peace|vitória paz|victoria paz
🤞 crossed fingers luck|dedos cruzados sorte|dedos cruzados suerte
🤟 love you gesture|te amo gesto|te quiero gesto
🤘 rock horns|rock chifres|rock cuernos
🤙 call me hang loose|me liga|llámame
👈 point left|apontando esquerda|señalar izquierda
👉 point right|apontando direita|señalar derecha
👆 point up|apontando cima|señalar arriba
👇 point down|apontando baixo|señalar abajo
☝️ index up|indicador cima|índice arriba
✋ raised hand stop|mão levantada pare|mano levantada alto
🤚 raised back of hand|dorso da mão|dorso de la mano
🖐️ hand splayed|mão aberta|mano abierta
🖖 vulcan salute|saudação vulcana|saludo vulcano
👋 wave hello bye|tchau oi acenando|hola adiós saludar
👏 clap applause|palmas aplausos|aplausos palmas
🙌 raising hands hooray|mãos levantadas viva|manos arriba hurra
👐 open hands|mãos abertas|manos abiertas
🤲 palms up|palmas para cima|palmas arriba
🤝 handshake deal|aperto de mão acordo|apretón de manos trato
🙏 pray please thanks|por favor obrigado oração|por favor gracias rezar
✍️ writing|escrevendo|escribiendo
💅 nail polish|esmalte unhas|esmalte uñas
💪 muscle strong|músculo forte|músculo fuerte
🦾 mechanical arm|braço mecânico|brazo mecánico
👀 eyes look|olhos olhando|ojos mirando
👁️ eye|olho|ojo
👂 ear|orelha ouvido|oreja
👃 nose|nariz|nariz
🧠 brain|cérebro|cerebro
👄 mouth|boca|boca
💋 kiss mark|marca de beijo|marca de beso
👶 baby|bebê|bebé
🧒 child|criança|niño
👦 boy|menino|niño chico
👧 girl|menina|niña chica
🧑 person|pessoa|persona
👨 man|homem|hombre
👩 woman|mulher|mujer
🧓 older person|idoso|anciano
👴 old man|vovô idoso|abuelo
👵 old woman|vovó idosa|abuela
🙋 raising hand|levantando a mão|levantando la mano
🙅 no gesture|gesto de não|gesto de no
🙆 ok gesture|gesto de ok|gesto de ok
💁 tipping hand info|atendente informação|información
🤷 shrug|dar de ombros|encogerse de hombros
🤦 facepalm|mão na testa|palmada en la cara
🙇 bow sorry|reverência desculpa|reverencia perdón
👮 police officer|policial|policía
👷 construction worker|pedreiro obras|obrero
💂 guard|guarda|guardia
🕵️ detective|detetive|detective
👩‍💻 technologist computer|programadora computador|programadora computadora
👨‍🍳 cook chef|cozinheiro chef|cocinero chef
👩‍⚕️ health worker doctor|médica saúde|doctora salud
🧑‍🔧 mechanic|mecânico|mecánico
🧑‍🏫 teacher|professor|profesor
🤵 tuxedo groom|noivo smoking|novio esmoquin
👰 bride veil|noiva véu|novia velo
🤰 pregnant|grávida|embarazada
🎅 santa claus|papai noel|papá noel
🚶 walking|andando|caminando
🏃 running|correndo|corriendo
💃 dancing woman|dançando|bailando
🕺 dancing man|dançarino|bailarín
👯 party people|festa amigas|fiesta amigas
👫 couple|casal|pareja
👪 family|família|familia
🗣️ speaking head|falando|hablando
👤 silhouette contact|silhueta contato|silueta contacto
👥 silhouettes group|grupo pessoas|grupo personas
`;
